package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar submitted to a real Flink 1.19 session cluster of separate processes (a JobManager
 * and two TaskManagers, started by {@code scripts/flink-session.sh}): the sample job publishes the
 * DirectRunner's tiles, and a TaskManager killed mid-job is survived by Flink's restart with the
 * same published result. Runs after {@code package}, since it needs the jar.
 */
@Tag("slow")
class FlinkSessionClusterIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir static Path dir;
  private static Path cluster;
  private static String master;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = dir.resolve("cluster");
    script("start", cluster.toString());
    master = "127.0.0.1:" + Files.readString(cluster.resolve("rest.port")).strip();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    script("stop", cluster.toString());
  }

  private static void script(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(ROOT.resolve("scripts/flink-session.sh").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), String.join(" ", command) + ":\n" + out);
  }

  /** Starts {@code scripts/tilebeam run} (the shaded jar) on the cluster, output in {@code log}. */
  private static Process submit(Path job, Path home, Path report, Path log) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(
                ROOT.resolve("scripts/tilebeam").toString(),
                "run",
                "--job",
                job.toString(),
                "--home",
                home.toString(),
                "--report",
                report.toString(),
                "--runner=FlinkRunner",
                "--flinkMaster=" + master)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("TILEBEAM_CDS", "0");
    return pb.start();
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  private static final Path WORKER_JAR = ROOT.resolve("pipeline/target/" + WorkerJar.NAME);

  /**
   * The jar the workers get holds no embedded-PostgreSQL binaries, no Flink runtime (the cluster
   * has its own) and no native library of another system than Linux, and stays under 150 MB.
   */
  @Test
  void theWorkerJarIsSlim() throws Exception {
    long size = Files.size(WORKER_JAR);
    assertTrue(size <= 150L << 20, "worker jar is " + size + " bytes");
    try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(WORKER_JAR.toFile())) {
      List<String> unwanted =
          jar.stream()
              .map(java.util.zip.ZipEntry::getName)
              .filter(
                  n ->
                      n.startsWith("postgres-")
                          || n.startsWith("org/apache/flink/")
                          || n.endsWith(".dll")
                          || n.endsWith(".dylib")
                          || n.endsWith(".jnilib")
                          || n.contains("/Mac/")
                          || n.contains("/Windows/"))
              .limit(20)
              .toList();
      assertEquals(List.of(), unwanted);
      assertTrue(jar.getEntry("io/tilebeam/pipeline/graph/TilebeamGraph.class") != null);
      assertTrue(
          jar.getEntry("org/apache/beam/runners/flink/FlinkPipelineOptions.class") != null,
          "Beam's Flink runner is tilebeam's, not the cluster's");
    }
    System.out.println("worker jar: " + size + " bytes");
  }

  @Test
  void theSampleJobOnTheSessionClusterPublishesTheDirectRunnersTiles() throws Exception {
    Path direct = Files.createDirectories(dir.resolve("direct"));
    TestJobs.runReporting(
        direct.resolve("report.json"),
        "--job",
        TestJobs.sample(direct).toString(),
        "--home",
        direct.resolve("home").toString(),
        "--runner=DirectRunner");

    Path onCluster = Files.createDirectories(dir.resolve("session"));
    Path log = onCluster.resolve("run.log");
    Process run =
        submit(
            TestJobs.sample(onCluster),
            onCluster.resolve("home"),
            onCluster.resolve("report.json"),
            log);
    assertTrue(run.waitFor(10, TimeUnit.MINUTES), "timed out: " + tail(log));
    assertEquals(0, run.exitValue(), tail(log));
    assertTrue(
        Files.readString(log).contains("staging " + WORKER_JAR + " to the workers"),
        "the slim worker jar is what the cluster runs: " + tail(log));
    JsonNode report = new ObjectMapper().readTree(onCluster.resolve("report.json").toFile());
    assertEquals(EndToEndIT.SAMPLE_TILES, report.get("written").asInt(), report.toString());

    Map<String, String> tiles = TestJobs.publishedTiles(onCluster.resolve("out"));
    assertEquals(TestJobs.publishedTiles(direct.resolve("out")), tiles);
    EndToEndIT.GOLDEN.forEach((name, sum) -> assertEquals(sum, tiles.get(name), name));
  }

  /** A world of seeded points at zooms 0-7: 21,845 tiles, long enough to kill a TaskManager in. */
  private static Path pointsJob(Path at) throws IOException {
    StringBuilder text = new StringBuilder();
    Random r = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      text.append(
          String.format(
              java.util.Locale.ROOT,
              "{\"type\":\"Feature\",\"id\":%d,\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                  + "[%.5f,%.5f]},\"properties\":{\"k\":%d}}%n",
              i,
              r.nextDouble() * 360 - 180,
              r.nextDouble() * 170 - 85,
              i % 13));
    }
    Path source = at.resolve("points.geojsonseq");
    Files.writeString(source, text.toString());
    Path job = at.resolve("job.yaml");
    Files.writeString(
        job,
        "namespace: session-kill\nlayers:\n  - name: points\n    source: {uri: '"
            + source
            + "', format: geojsonseq}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 7]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: '"
            + at.resolve("out")
            + "', format: geojson}\n");
    return job;
  }

  @Test
  void aTaskManagerKilledMidJobIsSurvivedByFlinksRestart() throws Exception {
    Path clean = Files.createDirectories(dir.resolve("clean"));
    JsonNode cleanReport =
        TestJobs.runReporting(
            clean.resolve("report.json"),
            "--job",
            pointsJob(clean).toString(),
            "--home",
            clean.resolve("home").toString(),
            "--runner=FlinkRunner",
            "--flinkMaster=[local]");

    Path killed = Files.createDirectories(dir.resolve("killed"));
    Path log = killed.resolve("run.log");
    Path out = killed.resolve("out");
    Process run =
        submit(pointsJob(killed), killed.resolve("home"), killed.resolve("report.json"), log);
    // Kill a TaskManager running the job's tasks as soon as tiles are being published.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
    while (run.isAlive() && System.nanoTime() < deadline) {
      if (TestJobs.publishedCount(out) > 100) {
        break;
      }
      Thread.sleep(50);
    }
    assertTrue(run.isAlive(), "the job ended before a TaskManager could be killed: " + tail(log));
    int atKill = TestJobs.publishedCount(out);
    script("kill-taskmanager", cluster.toString(), "busy");

    assertTrue(run.waitFor(10, TimeUnit.MINUTES), "timed out: " + tail(log));
    assertEquals(0, run.exitValue(), tail(log));
    assertTrue(
        atKill < cleanReport.get("written").asInt(),
        "killed after " + atKill + " of " + cleanReport.get("written") + " tiles");
    // Flink noticed the lost TaskManager and restarted the job (the restart strategy at work).
    String jobManager = Files.readString(cluster.resolve("jobmanager.log"));
    assertTrue(jobManager.contains("RESTARTING"), "no restart in the JobManager's log");

    JsonNode report = new ObjectMapper().readTree(killed.resolve("report.json").toFile());
    assertEquals(0, report.get("failed").asInt(), report.toString());
    // The same files, byte for byte, and nothing else: no duplicate, nothing half-written.
    assertEquals(TestJobs.publishedTiles(clean.resolve("out")), TestJobs.publishedTiles(out));
    // The killed TaskManager may have left a temporary file (never at a final name): reap takes it.
    TestJobs.Result reap =
        TestJobs.execute(
            "reap",
            "--job",
            killed.resolve("job.yaml").toString(),
            "--home",
            killed.resolve("home").toString(),
            "--older-than",
            "1s");
    assertEquals(ExitCode.OK, reap.code(), reap.err());
    try (var files = Files.walk(out)) {
      assertEquals(
          List.of(),
          files
              .filter(p -> p.getFileName().toString().startsWith("."))
              .map(Path::toString)
              .toList());
    }
  }
}
