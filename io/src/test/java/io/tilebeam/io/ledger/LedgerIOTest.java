package io.tilebeam.io.ledger;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;

public class LedgerIOTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static LedgerConfig config;

  @BeforeClass
  public static void setUp() {
    config = TestLedgers.freshSchema("LedgerIOTest");
  }

  @AfterClass
  public static void tearDown() {
    TestLedgers.drop(config);
  }

  private static KV<WorkKey, TileWork> work(String layer, int x) {
    TileWork w =
        new TileWork(
            "test",
            1,
            layer,
            "WebMercatorQuad",
            TileId.of(6, x, 1),
            "sha256:ab",
            "OGC:CRS84",
            "EPSG:3857",
            "geojson",
            "{}");
    return KV.of(WorkKey.of(w), w);
  }

  @Test
  public void duplicatesPassOnceAndEveryNewKeyIsClaimedInBatches() {
    List<KV<WorkKey, TileWork>> input = new ArrayList<>();
    List<KV<WorkKey, TileWork>> expected = new ArrayList<>();
    for (int x = 0; x < 25; x++) {
      input.add(work("dedupe", x));
      expected.add(work("dedupe", x));
    }
    input.add(work("dedupe", 3));
    input.add(work("dedupe", 17));
    RunSettings settings = new RunSettings("run-io-test", Duration.ofHours(1), 4, 3, false);
    PCollection<KV<WorkKey, TileWork>> claimed =
        pipeline
            .apply(Create.of(input).withCoder(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of())))
            .apply(LedgerIO.claim(config, settings));
    PAssert.that(claimed).containsInAnyOrder(expected);
    pipeline.run().waitUntilFinish();
  }
}
