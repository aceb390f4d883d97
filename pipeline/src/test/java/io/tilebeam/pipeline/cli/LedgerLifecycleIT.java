package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.JobSpecParser;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that race, runs that die having claimed, and the ledger round trips of a run, against one
 * real PostgreSQL that every run shares through {@code --ledger}.
 */
@Tag("slow")
class LedgerLifecycleIT {

  @TempDir static Path serverHome;
  @TempDir Path dir;

  private static EmbeddedLedger server;

  @BeforeAll
  static void startServer() {
    server = EmbeddedLedger.start(serverHome);
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /** A fresh database per test, so that tests never see each other's rows. */
  private String freshLedger() throws Exception {
    String db = "t" + Long.toHexString(System.nanoTime());
    try (Connection c = server.config().connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + db);
    }
    return server.config().jdbcUrl().replaceFirst("/postgres(\\?|$)", "/" + db + "$1");
  }

  private JsonNode run(Path job, String ledger, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of("--job", job.toString(), "--ledger", ledger, "--runner=DirectRunner"));
    args.addAll(List.of(extra));
    return TestJobs.runReporting(
        Files.createTempFile(dir, "report", ".json"), args.toArray(String[]::new));
  }

  private static List<Map.Entry<WorkKey, TileWork>> work(Path job, int limit) throws Exception {
    JobPlan plan = JobPlan.resolve(JobSpecParser.parse(job));
    List<Map.Entry<WorkKey, TileWork>> out = new ArrayList<>();
    for (LayerPlan l : plan.layers()) {
      l.tiling()
          .cover()
          .forEachTile(
              t -> {
                if (out.size() < limit) {
                  TileWork w = l.template().withTile(t);
                  out.add(new AbstractMap.SimpleImmutableEntry<>(WorkKey.of(w), w));
                }
              });
    }
    return out;
  }

  private static boolean isMediaRead(String request) {
    return request.startsWith("GET") && request.contains("alt=media");
  }

  private static long mediaReads(GcsStandIn server) {
    return server.requests().stream().filter(LedgerLifecycleIT::isMediaRead).count();
  }

  private static long count(String ledger, String where) throws Exception {
    try (Connection c = LedgerConfig.of(ledger).connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM tiles WHERE " + where)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void twoRunsOverOverlappingJobsStartedTogetherPublishEveryKeyOnce() throws Exception {
    String ledger = freshLedger();
    Path whole = TestJobs.sample(dir);
    // The second job is the first without its first layer: every one of its keys overlaps.
    Path overlap = dir.resolve("overlap.yaml");
    String text = Files.readString(whole);
    Files.writeString(
        overlap,
        text.substring(0, text.indexOf("  # The whole world"))
            + text.substring(text.indexOf("  - name: pacific")));
    // Two threads of their own: the common pool has one thread on a two-core machine.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    JsonNode ra;
    JsonNode rb;
    try {
      CompletableFuture<JsonNode> a =
          CompletableFuture.supplyAsync(() -> unchecked(whole, ledger), pool);
      CompletableFuture<JsonNode> b =
          CompletableFuture.supplyAsync(() -> unchecked(overlap, ledger), pool);
      ra = a.get();
      rb = b.get();
    } finally {
      pool.shutdown();
    }
    assertEquals(EndToEndIT.SAMPLE_TILES, ra.get("planned").asLong());
    assertEquals(67 + 21, rb.get("planned").asLong()); // the Pacific and vector layers
    // Each key was claimed by exactly one run, and its claimer published it.
    assertEquals(EndToEndIT.SAMPLE_TILES, ra.get("claimed").asLong() + rb.get("claimed").asLong());
    assertEquals(
        EndToEndIT.SAMPLE_TILES,
        ra.get("written").asLong()
            + ra.get("unchanged").asLong()
            + rb.get("written").asLong()
            + rb.get("unchanged").asLong());
    assertEquals(
        rb.get("planned").asLong(),
        rb.get("claimed").asLong()
            + rb.get("skippedInFlight").asLong()
            + rb.get("skippedCompleted").asLong());
    assertEquals(
        EndToEndIT.SAMPLE_TILES, count(ledger, "completed_at IS NOT NULL AND attempts = 1"));
    assertEquals(EndToEndIT.SAMPLE_TILES, count(ledger, "true"));
  }

  private JsonNode unchecked(Path job, String ledger) {
    try {
      return run(job, ledger);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void claimsOfAKilledRunAreInFlightThenStaleAndReapReleasesThemAtOnce() throws Exception {
    String ledger = freshLedger();
    Path job = TestJobs.sample(dir);
    LedgerConfig config = LedgerConfig.of(ledger);
    LedgerSchema.migrate(config);
    List<Map.Entry<WorkKey, TileWork>> claimedByDead = work(job, 30);
    try (Ledger l = Ledger.open(config)) {
      // The killed run got as far as claiming 30 tiles.
      l.startRun("run-killed", "sha256:job", 0);
      l.claim("run-killed", Duration.ofHours(1), false, claimedByDead.subList(0, 20));
      l.claim("run-killed-too", Duration.ofHours(1), false, claimedByDead.subList(20, 30));
    }
    JsonNode rerun = run(job, ledger);
    assertEquals(30, rerun.get("skippedInFlight").asLong(), rerun.toString());
    assertEquals(EndToEndIT.SAMPLE_TILES - 30, rerun.get("claimed").asLong());

    // reap --run releases one dead run's claims at once.
    TestJobs.Result reap = TestJobs.execute("reap", "--ledger", ledger, "--run", "run-killed");
    assertEquals(ExitCode.OK, reap.code(), reap.err());
    assertTrue(reap.out().contains("released 20 claims of run run-killed"), reap.out());
    assertEquals(20, run(job, ledger).get("claimed").asLong());

    // The other dead run's claims age past the stale window (by the database's clock).
    try (Connection c = config.connect();
        Statement st = c.createStatement()) {
      st.execute(
          "UPDATE tiles SET claimed_at = now() - interval '2 hours' WHERE run_id = 'run-killed-too'");
    }
    JsonNode reclaimed = run(job, ledger, "--task-timeout", "30m", "--stale-after", "1h");
    assertEquals(10, reclaimed.get("claimed").asLong(), reclaimed.toString());
    assertEquals(EndToEndIT.SAMPLE_TILES, count(ledger, "completed_at IS NOT NULL"));
  }

  /** The workers count the run's progress in the ledger, where the launcher and status read it. */
  @Test
  void aRunsProgressIsCountedInTheLedger() throws Exception {
    String ledger = freshLedger();
    Path job = TestJobs.sample(dir);
    JsonNode r = run(job, ledger, "--progress-every", "1s", "--claim-batch", "20");
    try (Connection c = LedgerConfig.of(ledger).connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT planned, claimed, skipped, done FROM runs WHERE run_id = '"
                    + r.get("runId").asText()
                    + "'")) {
      assertTrue(rs.next());
      assertEquals(r.get("planned").asLong(), rs.getLong(1));
      assertEquals(r.get("claimed").asLong(), rs.getLong(2));
      assertEquals(0, rs.getLong(3));
      assertEquals(r.get("written").asLong() + r.get("failed").asLong(), rs.getLong(4));
    }
    TestJobs.Result status = TestJobs.execute("status", "--ledger", ledger);
    assertEquals(ExitCode.OK, status.code(), status.err());
    assertTrue(status.out().contains(r.get("runId").asText()), status.out());
  }

  @Test
  void ledgerRoundTripsAreOneStatementPerBatchPlusOnePerShard() throws Exception {
    String ledger = freshLedger();
    Path job = TestJobs.sample(dir);
    int tiles = EndToEndIT.SAMPLE_TILES;
    for (int batch : new int[] {10, 500}) {
      if (batch == 500) {
        ledger = freshLedger();
      }
      JsonNode r =
          run(job, ledger, "--claim-batch", Integer.toString(batch), "--claim-shards", "4");
      long bound = (tiles + batch - 1) / batch + 4;
      assertTrue(r.get("claimStatements").asLong() <= bound, r + " over " + bound);
      assertTrue(r.get("commitStatements").asLong() <= bound, r + " over " + bound);
      assertTrue(r.get("claimStatements").asLong() >= (tiles + batch - 1) / batch, r.toString());
    }
  }

  @Test
  void verifyFindsALostOutputAndRepairLetsTheNextRunRebuildIt() throws Exception {
    String ledger = freshLedger();
    Path job = TestJobs.sample(dir);
    run(job, ledger);
    Path lost = dir.resolve("out/islands/2/3/1.fgb");
    Files.delete(lost);
    Files.writeString(dir.resolve("out/islands/0/0/0.fgb"), "not the published bytes");

    TestJobs.Result found = TestJobs.execute("verify", "--job", job.toString(), "--ledger", ledger);
    assertEquals(ExitCode.TILES_FAILED, found.code(), found.out() + found.err());
    assertTrue(found.out().contains("173 completed tiles, 171 ok, 2 bad"), found.out());
    assertTrue(found.out().contains("is missing"), found.out());
    assertTrue(found.out().contains("has checksum"), found.out());

    TestJobs.Result repaired =
        TestJobs.execute("verify", "--job", job.toString(), "--ledger", ledger, "--repair");
    assertEquals(ExitCode.OK, repaired.code(), repaired.out() + repaired.err());
    assertEquals(2, run(job, ledger).get("written").asLong());
    TestJobs.Result clean = TestJobs.execute("verify", "--job", job.toString(), "--ledger", ledger);
    assertEquals(ExitCode.OK, clean.code(), clean.out());

    Path tiles = dir.resolve("tiles.jsonl");
    TestJobs.Result plan =
        TestJobs.execute(
            "plan", "--job", job.toString(), "--ledger", ledger, "--tiles-out", tiles.toString());
    assertTrue(plan.out().contains("173 tiles, 173 completed"), plan.out());
    TestJobs.Result status =
        TestJobs.execute("status", "--ledger", ledger, "--job", job.toString());
    assertTrue(status.out().contains("islands"), status.out());
    assertTrue(status.out().contains("succeeded"), status.out());
  }

  @Test
  void withTheEmbeddedLedgerAKilledRunsClaimsAreReleasedByTheNextRun() throws Exception {
    Path job = TestJobs.sample(dir);
    Path home = dir.resolve("home");
    List<Map.Entry<WorkKey, TileWork>> claimed = work(job, 25);
    try (EmbeddedLedger embedded = EmbeddedLedger.start(home)) {
      LedgerSchema.migrate(embedded.config());
      try (Ledger l = Ledger.open(embedded.config())) {
        l.startRun("run-killed", "sha256:job", 0);
        l.claim("run-killed", Duration.ofHours(1), false, claimed);
      }
    }
    JsonNode rerun =
        TestJobs.runReporting(
            dir.resolve("report.json"), "--job", job.toString(), "--home", home.toString());
    assertEquals(0, rerun.get("skippedInFlight").asLong(), rerun.toString());
    assertEquals(EndToEndIT.SAMPLE_TILES, rerun.get("claimed").asLong(), rerun.toString());
  }

  @Test
  void aRunThatFailsReleasesItsClaimsAtOnce() throws Exception {
    String ledger = freshLedger();
    // The job resolves (planning reads the source object), then every later read of the object is
    // refused by storage, one attempt allowed: the run fails while reading, after the
    // claims were made. (A damaged source no longer fails a run: its tiles fail, as do those of a
    // directory that cannot be written; see HostileSourcesIT and PreflightIT.)
    try (GcsStandIn server = GcsStandIn.start()) {
      server.createBucket("sources");
      GcsSettings settings = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT);
      Storage storage = settings.open();
      storage.create(
          BlobInfo.newBuilder(BlobId.of("sources", "islands.geojson")).build(),
          Files.readAllBytes(Path.of(TestJobs.SAMPLE_SOURCE)));
      storage.close();
      // The first layer reads the object; the others the local file.
      Path job = TestJobs.sample(dir);
      Files.writeString(
          job,
          Files.readString(job)
              .replaceFirst(
                  java.util.regex.Pattern.quote(TestJobs.SAMPLE_SOURCE),
                  "gs://sources/islands.geojson"));
      System.setProperty("tilebeam.gcs.endpoint", server.endpoint());
      TestJobs.Result r;
      try {
        // How many reads of the object planning makes, counted on a plan of the same job: the
        // run's planning makes as many again, and every read after those is refused.
        TestJobs.Result plan =
            TestJobs.execute("plan", "--job", job.toString(), "--ledger", ledger);
        assertEquals(ExitCode.OK, plan.code(), plan.err());
        long planning = mediaReads(server);
        for (int i = 0; i < 100; i++) {
          server.inject(
              q -> isMediaRead(q) && mediaReads(server) > 2 * planning,
              GcsStandIn.Fault.UNAVAILABLE);
        }
        r =
            TestJobs.execute(
                "run",
                "--job",
                job.toString(),
                "--ledger",
                ledger,
                "--retry-attempts",
                "1",
                "--runner=DirectRunner");
      } finally {
        System.clearProperty("tilebeam.gcs.endpoint");
      }
      assertEquals(ExitCode.ERROR, r.code(), r.err());
      assertTrue(r.err().contains("islands.geojson"), r.err());
      try (Connection c = LedgerConfig.of(ledger).connect();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT status, claimed FROM runs")) {
        assertTrue(rs.next());
        assertEquals("failed", rs.getString(1));
        assertTrue(rs.getLong(2) > 0, "the run failed after it claimed tiles");
      }
      assertEquals(0, count(ledger, "completed_at IS NULL AND failed_at IS NULL"));
    }
  }
}
