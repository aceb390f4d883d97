package io.tilebeam.io.ledger;

import static org.junit.Assert.assertEquals;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileOutcome;
import io.tilebeam.transforms.outcome.TileOutcomeCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.PCollection;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;

/**
 * Stage 7, CommitLedger ({@link LedgerIO#commit}), on its own: published tiles become completed and
 * failed tiles failed, in batches, only where this run still owns the claim.
 */
public class CommitLedgerTest {

  private static final String RUN = "run-commit";
  private static final Duration STALE = Duration.ofHours(1);

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static LedgerConfig config;

  @BeforeClass
  public static void setUp() {
    config = TestLedgers.freshSchema("CommitLedgerTest");
  }

  @AfterClass
  public static void tearDown() {
    TestLedgers.drop(config);
  }

  private static TileWork work(int x) {
    return new TileWork(
        "test",
        1,
        "commit",
        "WebMercatorQuad",
        TileId.of(5, x, 2),
        "sha256:cd",
        "OGC:CRS84",
        "EPSG:3857",
        "geojson",
        "{}");
  }

  private static PublishResult published(TileWork w) {
    return new PublishResult(
        WorkKey.of(w),
        w,
        "out/" + w.tile().path(),
        "sha256:" + w.tile().x(),
        3,
        PublishResult.Outcome.WRITTEN);
  }

  private static void claim(String run, List<TileWork> works) throws Exception {
    List<Map.Entry<WorkKey, TileWork>> batch = new ArrayList<>();
    works.forEach(w -> batch.add(Map.entry(WorkKey.of(w), w)));
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim(run, STALE, false, batch);
    }
  }

  @Test
  public void completionsAndFailuresAreCommittedWhereTheRunOwnsTheClaim() throws Exception {
    List<TileWork> ours = new ArrayList<>();
    for (int x = 0; x < 7; x++) {
      ours.add(work(x));
    }
    TileWork theirs = work(20);
    claim(RUN, ours);
    claim("run-other", List.of(theirs));

    List<TileOutcome> outcomes = new ArrayList<>();
    for (int x = 0; x < 5; x++) {
      outcomes.add(published(ours.get(x)));
    }
    outcomes.add(new TileFailure(WorkKey.of(ours.get(5)), ours.get(5), "source", "unreadable"));
    outcomes.add(new TileFailure(WorkKey.of(ours.get(6)), ours.get(6), "storage", "refused"));
    // Another run holds this claim: its completion is a lost claim, not a commit.
    outcomes.add(published(theirs));

    // Batches of two over three shards: several statements per shard.
    RunSettings settings = new RunSettings(RUN, STALE, 2, 3, false);
    PCollection<Long> rows =
        pipeline
            .apply(Create.of(outcomes).withCoder(TileOutcomeCoder.of()))
            .apply(LedgerIO.commit(config, settings));
    PAssert.that(rows.apply(Sum.longsGlobally())).containsInAnyOrder(7L);
    pipeline.run().waitUntilFinish();

    List<WorkKey> keys = new ArrayList<>();
    ours.forEach(w -> keys.add(WorkKey.of(w)));
    keys.add(WorkKey.of(theirs));
    try (Ledger ledger = Ledger.open(config)) {
      Map<WorkKey, ClaimState> states = ledger.states(keys, STALE);
      for (int x = 0; x < 5; x++) {
        assertEquals("tile " + x, ClaimState.COMPLETED, states.get(WorkKey.of(ours.get(x))));
      }
      assertEquals(ClaimState.FAILED, states.get(WorkKey.of(ours.get(5))));
      assertEquals(ClaimState.FAILED, states.get(WorkKey.of(ours.get(6))));
      assertEquals(ClaimState.IN_FLIGHT, states.get(WorkKey.of(theirs)));
    }
  }
}
