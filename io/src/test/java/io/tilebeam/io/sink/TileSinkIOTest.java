package io.tilebeam.io.sink;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.TestLedgers;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.RenderedTileCoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The publishing stage in a pipeline: every tile published to its final name, and the features its
 * rendering could not use, which ride in the tile, passed on to the dead letter, once each.
 */
public class TileSinkIOTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final transient TemporaryFolder folder = new TemporaryFolder();

  private static LedgerConfig ledger;

  @BeforeClass
  public static void setUp() {
    ledger = TestLedgers.freshSchema("TileSinkIOTest");
  }

  @AfterClass
  public static void tearDown() {
    TestLedgers.drop(ledger);
  }

  @Test
  public void everyTileIsPublishedAndItsDeadLettersPassedOnOnce() throws Exception {
    Path root = folder.getRoot().toPath();
    String uri = root.toUri().toString();
    PublishSpec spec = SinkTestTiles.geoJsonSpec(uri, GcsSettings.fromEnvironment());
    FeatureFailure beyond = new FeatureFailure("roads", "b", "3/1/2", "geometry", "beyond repair");
    FeatureFailure empty = new FeatureFailure("roads", "c", "3/1/2", "geometry", "empty");
    List<RenderedTile> tiles = new ArrayList<>();
    tiles.add(SinkTestTiles.rendered(1, 2, "POINT (1 2)", List.of(beyond, empty)));
    tiles.add(SinkTestTiles.rendered(2, 2, "POINT (1 2)", List.of()));

    PCollectionTuple out =
        pipeline
            .apply(Create.of(tiles).withCoder(RenderedTileCoder.of()))
            .apply(TileSinkIO.publish(Map.of("roads", spec), "run-1", ledger));
    PAssert.that(out.get(TileSinkIO.DEAD_LETTERS)).containsInAnyOrder(beyond, empty);
    PAssert.that(out.get(TileSinkIO.FAILED)).empty();
    PAssert.that(out.get(TileSinkIO.PUBLISHED))
        .satisfies(
            results -> {
              List<TileWork> works = new ArrayList<>();
              results.forEach(r -> works.add(r.work()));
              assertEquals(2, works.size());
              assertTrue(works.contains(tiles.get(0).work()));
              assertTrue(works.contains(tiles.get(1).work()));
              return null;
            });
    pipeline.run().waitUntilFinish();

    try (var files = Files.walk(root)) {
      assertEquals(2, files.filter(p -> p.toString().endsWith(".geojson")).count());
    }
  }
}
