package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.ledger.ChaosProxy;
import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.sink.GcsStandIn.Fault;
import io.tilebeam.io.sink.GcsStandIn.StoredObject;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample job published to Google Cloud Storage — the in-process {@link GcsStandIn}, since no
 * emulator can be installed here — through the command line: with injected 503s and dropped
 * connections, killed with SIGKILL mid-run and rerun, and refused at once for a missing bucket.
 */
@Tag("slow")
class GcsRunIT {

  private static GcsStandIn server;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws IOException {
    server = GcsStandIn.start();
    System.setProperty("tilebeam.gcs.endpoint", server.endpoint());
  }

  @AfterAll
  static void stop() {
    System.clearProperty("tilebeam.gcs.endpoint");
    server.close();
  }

  /** The published tiles under a prefix, by name below it, and their checksums. */
  private static Map<String, String> objects(String bucket, String prefix) {
    Map<String, String> out = new TreeMap<>();
    for (StoredObject o : server.objects(bucket, prefix + "/").values()) {
      String name = o.name().substring(prefix.length() + 1);
      if (!name.startsWith("_tmp/") && !name.startsWith("_failed/")) {
        out.put(name, Checksums.of(o.data()));
      }
    }
    return out;
  }

  private static long temporaries(String bucket, String prefix) {
    return server.objects(bucket, prefix + "/_tmp/").size();
  }

  /** A clean run of the sample job into a directory, by relative file name and checksum. */
  private Map<String, String> cleanLocalRun() throws IOException {
    Path clean = Files.createDirectories(dir.resolve("clean"));
    Path job = TestJobs.sample(clean);
    TestJobs.runReporting(
        clean.resolve("report.json"), "--job", job.toString(), "--home", clean + "/home");
    return TestJobs.publishedTiles(clean.resolve("out"));
  }

  @Test
  void theSampleJobPublishesTheSameTilesToGcsThroughFaultsAndVerifies() throws Exception {
    server.createBucket("tiles");
    for (int i = 0; i < 3; i++) {
      server.inject(r -> r.contains("uploadType=multipart"), Fault.UNAVAILABLE);
      server.inject(r -> r.contains("rewriteTo"), Fault.DROP_AFTER);
      server.inject(r -> r.startsWith("GET /storage/v1/b/tiles/o/"), Fault.DROP_BEFORE);
    }
    Path job = TestJobs.sampleTo(dir, "gs://tiles/sample");
    String home = dir.resolve("home").toString();
    JsonNode report =
        TestJobs.runReporting(dir.resolve("report.json"), "--job", job.toString(), "--home", home);
    assertEquals(EndToEndIT.SAMPLE_TILES, report.get("written").asInt());
    assertEquals(0, report.get("failed").asInt());
    assertEquals(cleanLocalRun(), objects("tiles", "sample"));
    assertEquals(0, temporaries("tiles", "sample"));
    EndToEndIT.GOLDEN.forEach(
        (name, sum) -> assertEquals(sum, objects("tiles", "sample").get(name), name));

    JsonNode again =
        TestJobs.runReporting(dir.resolve("again.json"), "--job", job.toString(), "--home", home);
    assertEquals(0, again.get("written").asInt());
    assertEquals(EndToEndIT.SAMPLE_TILES, again.get("skippedCompleted").asInt());

    TestJobs.Result verify = TestJobs.execute("verify", "--job", job.toString(), "--home", home);
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
    assertTrue(verify.out().contains(EndToEndIT.SAMPLE_TILES + " completed tiles"));
  }

  /**
   * One storage request in ten fails transiently (503, 429, or a connection dropped before or after
   * the request took effect), and so does one ledger message in ten (the connection cut before the
   * statement reaches the server, or after it ran): the run retries in place and publishes the
   * clean run's tiles, and verify passes.
   */
  @Test
  void tenPercentOfStorageAndLedgerCallsFailingTransientlyChangeNothing() throws Exception {
    Map<String, String> clean = cleanLocalRun();
    server.createBucket("flaky");
    try (EmbeddedLedger ledger = EmbeddedLedger.start(dir.resolve("ledger"))) {
      String url = ledger.config().jdbcUrl();
      LedgerSchema.migrate(ledger.config());
      URI real = URI.create(url.substring("jdbc:".length()));
      try (ChaosProxy proxy = ChaosProxy.random(real.getHost(), real.getPort(), 0.10, 8)) {
        String flaky = url.replace(":" + real.getPort() + "/", ":" + proxy.port() + "/");
        Path job = TestJobs.sampleTo(dir, "gs://flaky/tiles");
        server.failRandomly(0.10, 42);
        proxy.arm(true);
        TestJobs.Result run;
        try {
          run =
              TestJobs.execute(
                  "run",
                  "--report",
                  dir.resolve("flaky.json").toString(),
                  "--job",
                  job.toString(),
                  "--ledger",
                  flaky);
        } finally {
          proxy.arm(false);
          server.failRandomly(0, 0);
        }
        StringBuilder records = new StringBuilder();
        server
            .objects("flaky", "tiles/_failed/")
            .values()
            .forEach(o -> records.append(new String(o.data(), StandardCharsets.UTF_8)));
        assertEquals(ExitCode.OK, run.code(), run.err() + records);
        JsonNode report = new ObjectMapper().readTree(dir.resolve("flaky.json").toFile());
        assertTrue(server.randomFaults() >= 20, "storage faults: " + server.randomFaults());
        assertTrue(proxy.cuts() >= 5, "ledger cuts: " + proxy.cuts());
        assertEquals(0, report.get("failed").asInt(), report.toString());
        assertEquals(0, report.get("lostClaims").asInt(), report.toString());
        assertEquals(clean, objects("flaky", "tiles"));
        assertEquals(
            0,
            temporaries("flaky", "tiles"),
            server.objects("flaky", "tiles/_tmp/").keySet()
                + " "
                + server.requests().stream()
                    .filter(
                        r ->
                            server.objects("flaky", "tiles/_tmp/").keySet().stream()
                                .anyMatch(
                                    t ->
                                        r.contains(
                                            t.substring(
                                                t.lastIndexOf('/') + 1, t.lastIndexOf('/') + 9))))
                    .toList());

        TestJobs.Result verify =
            TestJobs.execute("verify", "--job", job.toString(), "--ledger", url);
        assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains(EndToEndIT.SAMPLE_TILES + " completed tiles"));
      }
    }
  }

  @Test
  void aRunKilledWhilePublishingToGcsIsFinishedByTheNextOneWithTheCleanResult() throws Exception {
    server.createBucket("killed");
    Path job = TestJobs.sampleTo(dir, "gs://killed/tiles");
    Path home = dir.resolve("home");
    Process run =
        TestJobs.startRun(
            job,
            dir.resolve("killed.log"),
            Map.of(GcsSettings.EMULATOR_ENV, server.endpoint()),
            "--home",
            home.toString(),
            "--runner=DirectRunner");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (run.isAlive() && System.nanoTime() < deadline && objects("killed", "tiles").isEmpty()) {
      Thread.sleep(10);
    }
    assertTrue(run.isAlive(), "the run finished before it could be killed: see killed.log");
    run.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
    assertTrue(run.waitFor(30, TimeUnit.SECONDS));
    Map<String, String> atKill = objects("killed", "tiles");
    assertTrue(atKill.size() < EndToEndIT.SAMPLE_TILES, "killed mid-run: " + atKill.size());
    // Every object at a final name is a whole tile: its format reads it back.
    for (StoredObject o : server.objects("killed", "tiles/").values()) {
      String name = o.name();
      if (!name.contains("/_tmp/") && !name.contains("/_failed/")) {
        TileFormat.forExtension(name.substring(name.lastIndexOf('.') + 1)).countFeatures(o.data());
      }
    }

    TestJobs.Result rerun =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, rerun.code(), rerun.err());
    assertEquals(cleanLocalRun(), objects("killed", "tiles"));

    TestJobs.Result reap =
        TestJobs.execute(
            "reap", "--job", job.toString(), "--home", home.toString(), "--older-than", "1s");
    assertEquals(ExitCode.OK, reap.code(), reap.err());
    assertEquals(0, temporaries("killed", "tiles"), reap.out());

    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
  }

  /**
   * A tile the store refuses for good (403) fails alone: exit 3, the ledger row and a record in
   * {@code _failed/<layer>/tiles.jsonl} say why, every other tile is published, and a rerun with
   * {@code --retry-failed} publishes it.
   */
  @Test
  void aTileRefusedForGoodFailsAloneWithARecordAndIsRetriedOnRequest() throws Exception {
    server.createBucket("refused");
    server.inject(
        r -> r.contains("uploadType=multipart") && r.contains("/b/refused/"), Fault.FORBIDDEN);
    Path job = TestJobs.sampleTo(dir, "gs://refused/tiles");
    String home = dir.resolve("home").toString();
    TestJobs.Result r =
        TestJobs.execute(
            "run", "--job", job.toString(), "--home", home, "--report", dir + "/r.json");
    assertEquals(ExitCode.TILES_FAILED, r.code(), r.err());
    JsonNode report = new ObjectMapper().readTree(dir.resolve("r.json").toFile());
    assertEquals(1, report.get("failed").asInt());
    assertEquals(EndToEndIT.SAMPLE_TILES - 1, report.get("written").asInt());
    StoredObject records =
        server.objects("refused", "tiles/_failed/").values().stream()
            .filter(o -> o.name().endsWith("/tiles.jsonl"))
            .findFirst()
            .orElseThrow();
    String line = new String(records.data(), java.nio.charset.StandardCharsets.UTF_8).trim();
    assertTrue(line.contains("\"errorClass\":\"storage\""), line);
    assertTrue(line.contains("403"), line);

    JsonNode retried =
        TestJobs.runReporting(
            dir.resolve("again.json"), "--job", job.toString(), "--home", home, "--retry-failed");
    assertEquals(1, retried.get("written").asInt());
    assertEquals(cleanLocalRun(), objects("refused", "tiles"));
  }

  @Test
  void aMissingBucketOrABadPrefixIsRefusedBeforeAnythingIsWritten() throws Exception {
    int before = server.requests().size();
    for (String uri : List.of("gs://no-such-bucket/tiles", "gs://tiles/a/../b", "gs://X/tiles")) {
      Path job = TestJobs.sampleTo(Files.createTempDirectory(dir, "bad"), uri);
      TestJobs.Result r =
          TestJobs.execute("run", "--job", job.toString(), "--home", dir + "/bad-home");
      assertEquals(ExitCode.BAD_INPUT, r.code(), uri + ": " + r.err());
      assertTrue(r.err().contains("output.uri"), r.err());
      assertTrue(r.err().contains(uri), r.err());
    }
    assertTrue(
        server.requests().subList(before, server.requests().size()).stream()
            .allMatch(q -> q.startsWith("GET")),
        "only reads: " + server.requests().subList(before, server.requests().size()));
  }
}
