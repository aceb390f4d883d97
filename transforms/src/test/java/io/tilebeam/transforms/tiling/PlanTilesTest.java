package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.KeyWork;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.transforms.Keys;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.junit.Rule;
import org.junit.Test;

public class PlanTilesTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");

  @Test
  public void plansDistinctTilesOfEveryLayerAndKeysThem() {
    LayerTiling world =
        new LayerTiling(
            "world",
            TileMatrixSet.webMercatorQuad(),
            List.of(new Extent(-180, -85, 180, 85, WGS84), new Extent(-10, -10, 10, 10, WGS84)),
            0,
            2);
    LayerTiling pacific =
        new LayerTiling(
            "pacific",
            TileMatrixSet.webMercatorQuad(),
            List.of(new Extent(170, -20, -170, -10, WGS84)),
            2,
            2);
    TileWork template =
        new TileWork(
            "ns",
            1,
            "world",
            "WebMercatorQuad",
            TileId.of(0, 0, 0),
            "sha256:aa",
            "EPSG:4326",
            "EPSG:3857",
            "geojson",
            "{}");
    Map<String, TileWork> templates =
        Map.of(
            "world",
            template,
            "pacific",
            new TileWork(
                "ns",
                1,
                "pacific",
                "WebMercatorQuad",
                TileId.of(0, 0, 0),
                "sha256:aa",
                "EPSG:4326",
                "EPSG:3857",
                "geojson",
                "{}"));

    PCollection<PlannedTile> planned = pipeline.apply(PlanTiles.of(List.of(world, pacific)));
    PCollection<KV<WorkKey, TileWork>> keyed = planned.apply(KeyWork.withTemplates(templates));

    List<PlannedTile> expected = new ArrayList<>();
    for (int z = 0; z <= 2; z++) {
      for (long y = 0; y < (1L << z); y++) {
        for (long x = 0; x < (1L << z); x++) {
          expected.add(new PlannedTile("world", TileId.of(z, x, y)));
        }
      }
    }
    // [-20, -10] latitude is in row 2 at z2; the two parts fall in columns 3 and 0.
    expected.add(new PlannedTile("pacific", TileId.of(2, 3, 2)));
    expected.add(new PlannedTile("pacific", TileId.of(2, 0, 2)));
    PAssert.that(planned).containsInAnyOrder(expected);
    PAssert.thatSingleton(keyed.apply(Keys.create()).apply(Count.globally())).isEqualTo(23L);
    PAssert.that(keyed)
        .satisfies(
            kvs -> {
              for (KV<WorkKey, TileWork> kv : kvs) {
                if (!kv.getKey().equals(WorkKey.of(kv.getValue()))) {
                  throw new AssertionError("key does not match its work: " + kv);
                }
              }
              return null;
            });
    pipeline.run().waitUntilFinish();
  }
}
