package io.tilebeam.io.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
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
      Map<WorkKey, ClaimState> first = ledger.claim("run-a", Duration.ofHours(1), false, batch);
      assertTrue(first.values().stream().allMatch(s -> s == ClaimState.CLAIMED), first.toString());
      // A retried bundle of the same run re-enters its claims.
      Map<WorkKey, ClaimState> again = ledger.claim("run-a", Duration.ofHours(1), false, batch);
      assertTrue(again.values().stream().allMatch(s -> s == ClaimState.CLAIMED));
      // Another live run is refused.
      Map<WorkKey, ClaimState> other = ledger.claim("run-b", Duration.ofHours(1), false, batch);
      assertTrue(other.values().stream().allMatch(s -> s == ClaimState.IN_FLIGHT));
      assertEquals(3, ledger.roundTrips());
    }
  }

  @Test
  void completedWorkIsSkippedAndOnlyTheOwnerCompletes() throws Exception {
    var batch = batch("completed", 3);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-a", Duration.ofHours(1), false, batch);
      List<PublishResult> results = published(batch);
      assertEquals(0, ledger.complete("run-b", results).size());
      assertEquals(3, ledger.complete("run-a", results).size());
      Map<WorkKey, ClaimState> later = ledger.claim("run-c", Duration.ofMillis(1), false, batch);
      assertTrue(later.values().stream().allMatch(s -> s == ClaimState.COMPLETED));
    }
  }

  @Test
  void staleClaimsAreReclaimedByDatabaseTime() throws Exception {
    var batch = batch("stale", 2);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-dead", Duration.ofHours(1), false, batch);
      try (var c = config.connect();
          var st = c.createStatement()) {
        st.execute(
            "UPDATE tiles SET claimed_at = now() - interval '2 hours' WHERE layer = 'stale'");
      }
      Map<WorkKey, ClaimState> taken = ledger.claim("run-new", Duration.ofHours(1), false, batch);
      assertTrue(taken.values().stream().allMatch(s -> s == ClaimState.CLAIMED));
    }
  }

  @Test
  void statesAndTheirCountsReadEveryStateWhateverTheKeysOrder() throws Exception {
    var all = batch("states", 6000);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-states", Duration.ofHours(1), false, all.subList(0, 5000));
      ledger.complete("run-states", published(all.subList(0, 3000)));
      ledger.fail("run-states", failures(all.subList(3000, 3500)));
      try (var c = config.connect();
          var st = c.createStatement()) {
        st.execute(
            "UPDATE tiles SET claimed_at = now() - interval '90 minutes' WHERE layer = 'states'"
                + " AND completed_at IS NULL AND failed_at IS NULL AND x >= 4000");
      }
      List<WorkKey> keys = new ArrayList<>(all.stream().map(Map.Entry::getKey).toList());
      java.util.Collections.shuffle(keys, new java.util.Random(7));
      Map<WorkKey, ClaimState> states = ledger.states(keys, Duration.ofHours(1));
      for (int i = 0; i < all.size(); i++) {
        ClaimState expected =
            i < 3000
                ? ClaimState.COMPLETED
                : i < 3500
                    ? ClaimState.FAILED
                    : i < 4000 ? ClaimState.IN_FLIGHT : i < 5000 ? ClaimState.STALE : null;
        assertEquals(
            expected == null ? ClaimState.PENDING : expected,
            states.get(all.get(i).getKey()),
            "tile " + i);
      }
      assertEquals(
          Map.of(
              ClaimState.COMPLETED, 3000L,
              ClaimState.FAILED, 500L,
              ClaimState.IN_FLIGHT, 500L,
              ClaimState.STALE, 1000L,
              ClaimState.PENDING, 1000L),
          ledger.stateCounts(keys, Duration.ofHours(1)));
    }
  }

  private static List<PublishResult> published(List<Map.Entry<WorkKey, TileWork>> batch) {
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
    return results;
  }

  private static List<io.tilebeam.transforms.outcome.TileFailure> failures(
      List<Map.Entry<WorkKey, TileWork>> batch) {
    List<io.tilebeam.transforms.outcome.TileFailure> out = new ArrayList<>();
    for (var e : batch) {
      out.add(
          new io.tilebeam.transforms.outcome.TileFailure(
              e.getKey(), e.getValue(), "geometry", "ring self-intersects"));
    }
    return out;
  }

  @Test
  void failedTilesAreSkippedUntilARunRetriesThem() throws Exception {
    var batch = batch("failing", 3);
    try (Ledger ledger = Ledger.open(config)) {
      ledger.claim("run-a", Duration.ofHours(1), false, batch);
      assertEquals(3, ledger.fail("run-a", failures(batch)).size());
      Map<WorkKey, ClaimState> later = ledger.claim("run-b", Duration.ofMillis(1), false, batch);
      assertTrue(later.values().stream().allMatch(s -> s == ClaimState.FAILED), later.toString());
      Map<WorkKey, ClaimState> retry = ledger.claim("run-c", Duration.ofHours(1), true, batch);
      assertTrue(retry.values().stream().allMatch(s -> s == ClaimState.CLAIMED), retry.toString());
      // While the retrying run is alive, another retrying run does not steal its claims.
      Map<WorkKey, ClaimState> rival = ledger.claim("run-d", Duration.ofHours(1), true, batch);
      assertTrue(
          rival.values().stream().allMatch(s -> s == ClaimState.IN_FLIGHT), rival.toString());
      assertEquals(3, ledger.complete("run-c", published(batch)).size());
    }
  }

  @Test
  void reapReleasesTheClaimsOfADeadRunAtOnceAndStaleClaimsByAge() throws Exception {
    var dead = batch("reap-dead", 4);
    var old = batch("reap-old", 2);
    try (Ledger ledger = Ledger.open(config);
        LedgerAdmin admin = LedgerAdmin.open(config)) {
      ledger.startRun("run-dead", "sha256:job", 0);
      ledger.claim("run-dead", Duration.ofHours(1), false, dead);
      ledger.claim("run-old", Duration.ofHours(1), false, old);
      try (var c = config.connect();
          var st = c.createStatement()) {
        st.execute(
            "UPDATE tiles SET claimed_at = now() - interval '3 hours' WHERE layer = 'reap-old'");
      }
      assertEquals(4, admin.releaseRun("run-dead"));
      Map<WorkKey, ClaimState> taken = ledger.claim("run-new", Duration.ofHours(1), false, dead);
      assertTrue(taken.values().stream().allMatch(s -> s == ClaimState.CLAIMED));
      assertEquals(2, admin.releaseStale(Duration.ofHours(2)));
      assertEquals(0, admin.releaseStale(Duration.ofHours(2)));
      assertEquals(
          "abandoned",
          admin.recentRuns(50).stream()
              .filter(r -> r.get(0).equals("run-dead"))
              .findFirst()
              .orElseThrow()
              .get(3));
    }
  }

  @Test
  void aRunsProgressAddsUpAndDescribesItself() throws Exception {
    try (Ledger l = Ledger.open(config)) {
      l.startRun("run-progress", "digest", 1000);
      l.addProgress("run-progress", 400, 100, 0);
      l.addProgress("run-progress", 500, 0, 300);
      l.addProgress("run-progress", 0, 0, 200);
      l.addCutProgress("run-progress", 250, 3000);
      l.addCutProgress("run-progress", 0, 41);
      // Features left out of zooms as too small add up zoom by zoom.
      l.addCutProgress("run-progress", 0, 0, java.util.Map.of(0, 30L, 1, 22L));
      l.addCutProgress("run-progress", 0, 0, java.util.Map.of(1, 3L, 7, 1L));
      RunProgress p = l.progress("run-progress");
      assertEquals(250, p.featuresRead());
      assertEquals(3041, p.piecesCut());
      assertEquals(java.util.Map.of(0, 30L, 1, 25L, 7, 1L), p.belowMinSize().counts());
      assertTrue(
          p.describe()
              .contains(
                  "3,041 pieces cut; features below the minimum size: z0 30, z1 25, z7 1; 500 of"
                      + " 900 claimed done"),
          p.describe());
      assertEquals(1000, p.planned());
      assertEquals(900, p.claimed());
      assertEquals(100, p.skipped());
      assertEquals(500, p.done());
      assertEquals(null, l.progress("no-such-run"));
    }
    RunProgress p = new RunProgress(1000, 900, 100, 450, java.time.Duration.ofSeconds(90));
    assertEquals(
        "1,000 of 1,000 planned tiles looked up (100 skipped, 900 claimed); 450 of 900 claimed"
            + " done, 5.0 tiles/s, about 1m30s left",
        p.describe());
    // The rate since the last line, when given, sets the time left.
    assertEquals(
        "1,000 of 1,000 planned tiles looked up (100 skipped, 900 claimed); 450 of 900 claimed"
            + " done, 45.0 tiles/s, about 10s left",
        p.describe(45));
    // Still claiming: no time left is guessed yet.
    assertEquals(
        "300 of 1,000 planned tiles looked up (0 skipped, 300 claimed); 10 of 300 claimed done,"
            + " 1.0 tiles/s",
        new RunProgress(1000, 300, 0, 10, java.time.Duration.ofSeconds(10)).describe());
    // Every tile claimed, but too few done to say how long the rest takes.
    assertEquals(
        "87,381 of 87,381 planned tiles looked up (0 skipped, 87,381 claimed); 25 of 87,381 claimed"
            + " done, 0.8 tiles/s",
        new RunProgress(87381, 87381, 0, 25, java.time.Duration.ofSeconds(30)).describe(0.8));
    // Reading and cutting, before any tile is done, still show the run moving.
    assertEquals(
        "1,000 of 1,000 planned tiles looked up (0 skipped, 1,000 claimed); 120 features read,"
            + " 45,678 pieces cut; 0 of 1,000 claimed done",
        new RunProgress(
                1000, 1000, 0, 0, java.time.Duration.ofSeconds(10), 120, 45678, ZoomCounts.NONE)
            .describe());
  }

  @Test
  void aLedgerMigratedByANewerTilebeamIsRefused() throws Exception {
    LedgerConfig newer = TestLedgers.freshSchema("LedgerTestNewer");
    try (var c = newer.connect();
        var st = c.createStatement()) {
      st.execute(
          "INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
              + " checksum, installed_by, execution_time, success) VALUES (99, '99', 'future',"
              + " 'SQL', 'V99__future.sql', 0, 'test', 0, true)");
    }
    LedgerUnavailableException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            LedgerUnavailableException.class, () -> LedgerSchema.migrate(newer));
    assertTrue(
        e.getMessage().contains("schema version 99, newer than this tilebeam"), e.getMessage());
    TestLedgers.drop(newer);
  }

  @Test
  void theCurrentVersionIsTheNewestShippedMigrationAndAMigratedLedgerIsAtIt() throws Exception {
    int newest;
    try (var files =
        java.nio.file.Files.list(
            java.nio.file.Path.of(
                    LedgerSchema.class.getResource("/db/migration/V1__ledger.sql").toURI())
                .getParent())) {
      newest =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.matches("V[0-9]+__.*\\.sql"))
              .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__"))))
              .max()
              .orElseThrow();
    }
    assertEquals(newest, LedgerSchema.CURRENT_VERSION);
    try (var c = config.connect()) {
      assertEquals(LedgerSchema.CURRENT_VERSION, LedgerSchema.installedVersion(c, config.schema()));
      assertEquals(-1, LedgerSchema.installedVersion(c, "no_such_schema"));
    }
    // Migrating a current ledger again is a no-op that still answers.
    LedgerSchema.migrate(config);
  }
}
