package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.io.source.NodeScripts;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.S3FaultProxy;
import io.tilebeam.io.storage.S3MockServer;
import io.tilebeam.io.storage.S3Settings;
import java.io.IOException;
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
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The sample job read from and published to an S3-compatible store — S3Mock, a real server on
 * loopback, behind the fault proxy — through the command line: through 10% transient faults, killed
 * with SIGKILL mid-run and rerun, into a PMTiles archive, and refused before any claim for bad
 * credentials, an unreachable endpoint or a missing bucket.
 */
@Tag("slow")
class S3RunIT {

  private static S3MockServer server;
  private static S3FaultProxy proxy;
  private static S3Client admin;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws IOException {
    S3MockServer.useTestCredentials();
    server = S3MockServer.start("sources");
    proxy = S3FaultProxy.start(server.port());
    proxy.requireAccessKey(S3MockServer.ACCESS_KEY);
    admin = server.settings().open();
    admin.putObject(
        b -> b.bucket("sources").key("samples/islands.geojson"),
        RequestBody.fromFile(Path.of(TestJobs.SAMPLE_SOURCE)));
    admin.putObject(
        b -> b.bucket("sources").key("samples/terrain.tif"),
        RequestBody.fromFile(Path.of(TestJobs.SAMPLE_RASTER)));
    System.setProperty(S3Settings.ENDPOINT_PROPERTY, proxy.endpoint());
  }

  @AfterAll
  static void stop() throws IOException {
    System.clearProperty(S3Settings.ENDPOINT_PROPERTY);
    admin.close();
    proxy.close();
    server.close();
  }

  /** The environment of a separate process that reaches the store through the proxy. */
  private static Map<String, String> env(String accessKey, String endpoint) {
    return Map.of(
        "AWS_ENDPOINT_URL_S3",
        endpoint,
        "AWS_ACCESS_KEY_ID",
        accessKey,
        "AWS_SECRET_ACCESS_KEY",
        "tilebeam-test-secret",
        "AWS_REGION",
        "us-east-1");
  }

  private static void createBucket(String bucket) {
    admin.createBucket(b -> b.bucket(bucket));
  }

  /** The objects under {@code prefix}, by name below it, and their checksums; not dead letters. */
  private static Map<String, String> objects(String bucket, String prefix) {
    Map<String, String> out = new TreeMap<>();
    for (S3Object o :
        admin.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix + "/")).contents()) {
      String name = o.key().substring(prefix.length() + 1);
      if (!name.startsWith("_failed/")) {
        out.put(name, Checksums.of(bytes(bucket, o.key())));
      }
    }
    return out;
  }

  private static byte[] bytes(String bucket, String key) {
    return admin.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
  }

  /** The whole sample job (its raster layer too) read from the store, published to {@code out}. */
  private Path sampleFromS3(Path home, String out) throws IOException {
    Path job = TestJobs.fullSample(home);
    Files.writeString(
        job,
        Files.readString(job)
            .replace(TestJobs.SAMPLE_SOURCE, "s3://sources/samples/islands.geojson")
            .replace(TestJobs.SAMPLE_RASTER, "s3://sources/samples/terrain.tif")
            .replace("uri: " + home.resolve("out"), "uri: " + out));
    return job;
  }

  /** A clean run of the whole sample job from local files into a directory. */
  private Map<String, String> cleanLocalRun() throws IOException {
    Path clean = Files.createDirectories(dir.resolve("clean"));
    Path job = TestJobs.fullSample(clean);
    TestJobs.runReporting(
        clean.resolve("report.json"), "--job", job.toString(), "--home", clean + "/home");
    return TestJobs.publishedTiles(clean.resolve("out"));
  }

  @Test
  void theSampleJobFromAndToS3ThroughTenPercentFaultsPublishesTheCleanTiles() throws Exception {
    Map<String, String> clean = cleanLocalRun();
    createBucket("tiles");
    Path job = sampleFromS3(Files.createDirectories(dir.resolve("s3")), "s3://tiles/sample");
    String home = dir.resolve("home").toString();
    int faultsBefore = proxy.faults();
    proxy.random(0.10, 42);
    JsonNode report;
    try {
      report =
          TestJobs.runReporting(
              dir.resolve("report.json"), "--job", job.toString(), "--home", home);
    } finally {
      proxy.random(0, 0);
    }
    assertTrue(proxy.faults() - faultsBefore >= 20, "faults made: " + proxy.faults());
    assertEquals(0, report.get("failed").asInt(), report.toString());
    assertEquals(clean, objects("tiles", "sample"));

    JsonNode again =
        TestJobs.runReporting(dir.resolve("again.json"), "--job", job.toString(), "--home", home);
    assertEquals(0, again.get("written").asInt());
    assertEquals(clean.size(), again.get("skippedCompleted").asInt());

    TestJobs.Result verify = TestJobs.execute("verify", "--job", job.toString(), "--home", home);
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
    assertTrue(verify.out().contains(clean.size() + " completed tiles"), verify.out());
  }

  /**
   * One job whose layers read the sample as FlatGeobuf (ranged reads per tile), GeoJSONSeq and
   * GeoParquet (row groups by range) objects publishes the tiles of the same job over local files,
   * byte for byte.
   */
  @Test
  void s3SourcesOfEveryFormatPublishTheTilesOfTheLocalFiles() throws Exception {
    Path files = Files.createDirectories(dir.resolve("files"));
    Path fgb = files.resolve("islands.fgb");
    Path seq = files.resolve("islands.geojsonseq");
    Path parquet = files.resolve("islands.parquet");
    Gdal.ogr2ogr("-f", "FlatGeobuf", fgb.toString(), TestJobs.SAMPLE_SOURCE);
    Gdal.ogr2ogr("-f", "GeoJSONSeq", seq.toString(), TestJobs.SAMPLE_SOURCE);
    NodeScripts.run(
        NodeScripts.class,
        "write-geoparquet.mjs",
        files,
        TestJobs.SAMPLE_SOURCE,
        parquet.toString(),
        "4");
    for (Path f : List.of(fgb, seq, parquet)) {
      admin.putObject(
          b -> b.bucket("sources").key("formats/" + f.getFileName()), RequestBody.fromFile(f));
    }
    String template =
        "namespace: s3-formats\nlayers:\n"
            + layer("fgb", "SRC/islands.fgb", "flatgeobuf", "")
            + layer("seq", "SRC/islands.geojsonseq", "geojsonseq", "")
            + layer("parquet", "SRC/islands.parquet", "geoparquet", ", idColumn: id");
    Path local = Files.createDirectories(dir.resolve("local-formats"));
    Path remote = Files.createDirectories(dir.resolve("s3-formats"));
    Path localJob =
        Files.writeString(
            local.resolve("job.yaml"),
            template.replace("SRC", files.toString()).replace("OUT", local + "/out"));
    Path remoteJob =
        Files.writeString(
            remote.resolve("job.yaml"),
            template.replace("SRC", "s3://sources/formats").replace("OUT", remote + "/out"));
    TestJobs.runReporting(
        local.resolve("r.json"), "--job", localJob.toString(), "--home", local + "/home");
    int before = proxy.requests();
    TestJobs.runReporting(
        remote.resolve("r.json"), "--job", remoteJob.toString(), "--home", remote + "/home");
    Map<String, String> tiles = TestJobs.publishedTiles(local.resolve("out"));
    assertTrue(tiles.size() > 100, tiles.size() + " tiles");
    assertEquals(tiles, TestJobs.publishedTiles(remote.resolve("out")));
    long ranged =
        proxy.requestLines().subList(before, proxy.requests()).stream()
            .filter(l -> l.startsWith("GET /sources/formats/"))
            .count();
    assertTrue(ranged >= 3, "ranged reads of the objects: " + ranged);
  }

  private static String layer(String name, String uri, String format, String extra) {
    return "  - name: "
        + name
        + "\n    source: {uri: "
        + uri
        + ", format: "
        + format
        + extra
        + "}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
        + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 3]\n    targetCrs: EPSG:3857\n"
        + "    output: {uri: OUT, format: geojson}\n";
  }

  @Test
  void aRunKilledWhilePublishingToS3IsFinishedByTheNextOneWithTheCleanResult() throws Exception {
    createBucket("killed");
    Path job = TestJobs.sampleTo(Files.createDirectories(dir.resolve("k")), "s3://killed/tiles");
    Path home = dir.resolve("home");
    Process run =
        TestJobs.startRun(
            job,
            dir.resolve("killed.log"),
            env(S3MockServer.ACCESS_KEY, proxy.endpoint()),
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
    for (String name : atKill.keySet()) {
      TileFormat.forExtension(name.substring(name.lastIndexOf('.') + 1))
          .countFeatures(bytes("killed", "tiles/" + name));
    }

    TestJobs.Result rerun =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, rerun.code(), rerun.err());
    Path clean = Files.createDirectories(dir.resolve("clean-vector"));
    TestJobs.runReporting(
        clean.resolve("r.json"),
        "--job",
        TestJobs.sample(clean).toString(),
        "--home",
        clean + "/home");
    assertEquals(TestJobs.publishedTiles(clean.resolve("out")), objects("killed", "tiles"));

    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
  }

  @Test
  void aLayerPackedIntoAnArchiveOnS3IsTheLocalArchiveByteForByte() throws Exception {
    createBucket("archives");
    Path local = Files.createDirectories(dir.resolve("local"));
    String layer =
        "namespace: s3-archive\nlayers:\n  - name: islands\n    source: {uri: "
            + TestJobs.SAMPLE_SOURCE
            + ", format: geojson}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 4]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: OUT, format: pmtiles}\n";
    Path localJob =
        Files.writeString(local.resolve("job.yaml"), layer.replace("OUT", local + "/out"));
    Path s3Job =
        Files.writeString(dir.resolve("s3-job.yaml"), layer.replace("OUT", "s3://archives/maps"));
    TestJobs.runReporting(
        local.resolve("r.json"), "--job", localJob.toString(), "--home", local + "/home");
    TestJobs.Result first =
        TestJobs.execute("run", "--job", s3Job.toString(), "--home", dir + "/home");
    assertEquals(ExitCode.OK, first.code(), first.err());
    assertTrue(first.out().contains("islands.pmtiles written"), first.out());
    assertArrayEquals(
        Files.readAllBytes(local.resolve("out/islands.pmtiles")),
        bytes("archives", "maps/islands.pmtiles"));
    TestJobs.Result again =
        TestJobs.execute("run", "--job", s3Job.toString(), "--home", dir + "/home");
    assertTrue(again.out().contains("islands.pmtiles unchanged"), again.out());
  }

  /**
   * A tile the store refuses for good (403 AccessDenied on its PUT) fails alone: exit 3, a record
   * in {@code _failed/<layer>/tiles.jsonl} says why, every other tile is published, and a rerun
   * with {@code --retry-failed} publishes it.
   */
  @Test
  void aTileRefusedForGoodFailsAloneWithARecordAndIsRetriedOnRequest() throws Exception {
    createBucket("refused");
    proxy.inject(r -> r.startsWith("PUT /refused/tiles/"), S3FaultProxy.Fault.FORBIDDEN);
    Path job = TestJobs.sampleTo(Files.createDirectories(dir.resolve("r")), "s3://refused/tiles");
    String home = dir.resolve("home").toString();
    TestJobs.Result r =
        TestJobs.execute(
            "run", "--job", job.toString(), "--home", home, "--report", dir + "/r.json");
    assertEquals(ExitCode.TILES_FAILED, r.code(), r.err());
    JsonNode report =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("r.json").toFile());
    assertEquals(1, report.get("failed").asInt());
    assertEquals(EndToEndIT.SAMPLE_TILES - 1, report.get("written").asInt());
    String records = "";
    for (S3Object o :
        admin
            .listObjectsV2Paginator(b -> b.bucket("refused").prefix("tiles/_failed/"))
            .contents()) {
      if (o.key().endsWith("/tiles.jsonl")) {
        records += new String(bytes("refused", o.key()), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    assertTrue(records.contains("\"errorClass\":\"storage\""), records);
    assertTrue(records.contains("403"), records);

    JsonNode retried =
        TestJobs.runReporting(
            dir.resolve("again.json"), "--job", job.toString(), "--home", home, "--retry-failed");
    assertEquals(1, retried.get("written").asInt());
    Path clean = Files.createDirectories(dir.resolve("clean-refused"));
    TestJobs.runReporting(
        clean.resolve("r.json"),
        "--job",
        TestJobs.sample(clean).toString(),
        "--home",
        clean + "/h");
    assertEquals(TestJobs.publishedTiles(clean.resolve("out")), objects("refused", "tiles"));
  }

  /**
   * Credentials the store refuses, or a store that cannot be reached, end the run with exit 1
   * within a minute, before any tile is claimed: the next run with good credentials claims every
   * tile. The secret is never printed.
   */
  @Test
  void badCredentialsOrAnUnreachableEndpointEndTheRunBeforeAnyClaim() throws Exception {
    createBucket("guarded");
    Path job = TestJobs.sampleTo(Files.createDirectories(dir.resolve("g")), "s3://guarded/tiles");
    Path home = dir.resolve("home");
    String closed = "http://127.0.0.1:" + S3MockServer.freePort();
    for (Map<String, String> env :
        List.of(env("AKIAWRONGKEY", proxy.endpoint()), env(S3MockServer.ACCESS_KEY, closed))) {
      Path log = dir.resolve("refused.log");
      long started = System.nanoTime();
      Process run = TestJobs.startRun(job, log, env, "--home", home.toString());
      assertTrue(run.waitFor(60, TimeUnit.SECONDS), "ended within 60 s: " + Files.readString(log));
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
      String out = Files.readString(log);
      assertEquals(ExitCode.ERROR, run.exitValue(), out);
      assertTrue(out.contains("bucket 'guarded'"), out);
      assertTrue(
          out.contains(env.get("AWS_ENDPOINT_URL_S3").equals(closed) ? "cannot reach" : "(403)"),
          out);
      assertFalse(out.contains("tilebeam-test-secret"), "the secret is never printed");
      System.out.println("refused in " + seconds + " s: " + env.get("AWS_ENDPOINT_URL_S3"));
    }
    assertEquals(Map.of(), objects("guarded", "tiles"));
    JsonNode report =
        TestJobs.runReporting(
            dir.resolve("r.json"), "--job", job.toString(), "--home", home.toString());
    assertEquals(EndToEndIT.SAMPLE_TILES, report.get("claimed").asInt(), report.toString());
    assertEquals(0, report.get("skippedInFlight").asInt(), report.toString());
  }

  @Test
  void aMissingBucketIsRefusedBeforeAnythingIsWritten() throws Exception {
    for (String uri : List.of("s3://no-such-bucket/tiles", "s3://Bad_Bucket/tiles")) {
      Path job = TestJobs.sampleTo(Files.createTempDirectory(dir, "bad"), uri);
      TestJobs.Result r =
          TestJobs.execute("run", "--job", job.toString(), "--home", dir + "/bad-home");
      assertEquals(ExitCode.BAD_INPUT, r.code(), uri + ": " + r.err());
      assertTrue(r.err().contains("output.uri"), r.err());
      assertTrue(r.err().contains(uri), r.err());
    }
  }
}
