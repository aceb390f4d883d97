package io.tilebeam.io.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.sink.PublishResult;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LedgerTest {

  private static LedgerConfig config;

  @BeforeAll
  static void setUp() {
    config = TestLedgers.freshSchema("LedgerTest");
  }

  @AfterAll
  static void tearDown() {
    TestLedgers.drop(config);
  }

  private static List<Map.Entry<WorkKey, TileWork>> batch(String layer, int n) {
    List<Map.Entry<WorkKey, TileWork>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      TileWork w =
          new TileWork(
              "test",
              1,
              layer,
              "WebMercatorQuad",
              TileId.of(4, i, 3),
              "sha256:ab",
              "OGC:CRS84",
              "EPSG:3857",
              "geojson",
              "{}");
      out.add(new AbstractMap.SimpleImmutableEntry<>(WorkKey.of(w), w));
    }
    return out;
  }

  @Test
  void claimsAreOwnedByTheRunAndSkippedByOthers() throws Exception {
    var batch = batch("owned", 5);
    try (Ledger ledger = Ledger.open(config)) {
      Map<WorkKey, ClaimState> first = ledger.claim("run-a", Duration.ofHours(1), batch);
      assertTrue(first.values().stream().allMatch(s -> s == ClaimState.CLAIMED), first.toString());
      // A retried bundle of the same run re-enters its claims.
      Map<WorkKey, ClaimState> again = ledger.claim("run-a", Duration.ofHours(1), batch);
      assertTrue(again.values().stream().allMatch(s -> s == ClaimState.CLAIMED));
      // Another live run is refused.
      Map<WorkKey, ClaimState> other = ledger.claim("run-b", Duration.ofHours(1), batch);
      assertTrue(other.values().stream().allMatch(s -> s == ClaimState.IN_FLIGHT));
      assertEquals(3, ledger.roundTrips());
    }
  }

  @Test
  void completedWorkIsSkippedAndOnlyTheOwnerCompletes() throws Exception {
    var batch = batch("completed", 3);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-a", Duration.ofHours(1), batch);
      List<PublishResult> results = new ArrayList<>();
      for (var e : batch) {
        results.add(
            new PublishResult(
                e.getKey(),
                e.getValue(),
                "file:///x",
                "sha256:00",
                1,
                PublishResult.Outcome.WRITTEN));
      }
      assertEquals(0, ledger.complete("run-b", results).size());
      assertEquals(3, ledger.complete("run-a", results).size());
      Map<WorkKey, ClaimState> later = ledger.claim("run-c", Duration.ofMillis(1), batch);
      assertTrue(later.values().stream().allMatch(s -> s == ClaimState.COMPLETED));
    }
  }

  @Test
  void staleClaimsAreReclaimedByDatabaseTime() throws Exception {
    var batch = batch("stale", 2);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-dead", Duration.ofHours(1), batch);
      try (var c = config.connect();
          var st = c.createStatement()) {
        st.execute(
            "UPDATE tiles SET claimed_at = now() - interval '2 hours' WHERE layer = 'stale'");
      }
      Map<WorkKey, ClaimState> taken = ledger.claim("run-new", Duration.ofHours(1), batch);
      assertTrue(taken.values().stream().allMatch(s -> s == ClaimState.CLAIMED));
    }
  }
}
