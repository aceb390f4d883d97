package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.DeadLetters;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.io.storage.GcsSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same job over the same data in each source format publishes byte-identical tiles: the
 * sample's islands as a GeoJSON FeatureCollection and as GeoJSONSeq (with a corrupt line, which is
 * dead-lettered and costs nothing else).
 */
@Tag("slow")
class SourceFormatsIT {

  @TempDir Path dir;

  private static Map<String, String> tiles(Path out) throws IOException {
    return TestJobs.publishedTiles(out);
  }

  /** The sample source as GeoJSONSeq, one feature a line, RS-prefixed, with one corrupt line. */
  private Path sequence() throws IOException {
    ObjectMapper json = new ObjectMapper();
    JsonNode collection = json.readTree(Path.of(TestJobs.SAMPLE_SOURCE).toFile());
    StringBuilder text = new StringBuilder();
    int i = 0;
    for (JsonNode feature : collection.get("features")) {
      text.append('\u001e').append(json.writeValueAsString(feature)).append('\n');
      if (++i == 5) {
        text.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordi\n");
      }
    }
    Path file = dir.resolve("islands.geojsonseq");
    Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void geoJsonAndGeoJsonSeqSourcesPublishByteIdenticalTiles() throws Exception {
    Path collectionDir = Files.createDirectories(dir.resolve("collection"));
    Path collectionJob = TestJobs.sample(collectionDir);
    TestJobs.runReporting(
        collectionDir.resolve("report.json"),
        "--job",
        collectionJob.toString(),
        "--home",
        collectionDir + "/home");

    Path seqDir = Files.createDirectories(dir.resolve("seq"));
    Path seqJob = TestJobs.sample(seqDir);
    String source = "uri: " + TestJobs.SAMPLE_SOURCE + "\n      format: geojson\n";
    String yaml = Files.readString(seqJob);
    assertTrue(yaml.contains(source), yaml);
    Files.writeString(
        seqJob, yaml.replace(source, "uri: " + sequence() + "\n      format: geojsonseq\n"));
    JsonNode report =
        TestJobs.runReporting(
            seqDir.resolve("report.json"), "--job", seqJob.toString(), "--home", seqDir + "/home");

    assertEquals(tiles(collectionDir.resolve("out")), tiles(seqDir.resolve("out")));
    Map<String, String> seqTiles = tiles(seqDir.resolve("out"));
    EndToEndIT.GOLDEN.forEach((name, sum) -> assertEquals(sum, seqTiles.get(name), name));
    // The corrupt line is read once per layer and dead-lettered; it cost no tile.
    assertEquals(0, report.get("failed").asInt());
    assertEquals(3, report.get("featuresDeadLettered").asInt(), report.toString());
    List<String> records = Files.readAllLines(DeadLetters.file(seqDir.resolve("out"), "islands"));
    assertEquals(1, records.size(), records.toString());
    assertTrue(records.get(0).contains("corrupt JSON"), records.get(0));
  }

  /**
   * Sources in Google Cloud Storage (the stand-in): the sample as a GeoJSON object, a FlatGeobuf
   * object (read per tile in ranges) and a GeoJSONSeq object publish the same tiles as the local
   * file; a missing object is exit 2.
   */
  @Test
  void gcsSourcesPublishTheSameTilesAsTheLocalFile() throws Exception {
    try (GcsStandIn server = GcsStandIn.start()) {
      server.createBucket("sources");
      GcsSettings settings = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT);
      Storage storage = settings.open();
      storage.create(
          BlobInfo.newBuilder(BlobId.of("sources", "islands.geojson")).build(),
          Files.readAllBytes(Path.of(TestJobs.SAMPLE_SOURCE)));
      storage.create(
          BlobInfo.newBuilder(BlobId.of("sources", "islands.geojsonseq")).build(),
          Files.readAllBytes(sequence()));
      Path fgb = dir.resolve("islands.fgb");
      Gdal.ogr2ogr("-f", "FlatGeobuf", fgb.toString(), TestJobs.SAMPLE_SOURCE);
      storage.create(
          BlobInfo.newBuilder(BlobId.of("sources", "islands.fgb")).build(),
          Files.readAllBytes(fgb));
      storage.close();
      System.setProperty("tilebeam.gcs.endpoint", server.endpoint());
      try {
        Path localDir = Files.createDirectories(dir.resolve("local"));
        Path localJob = TestJobs.sample(localDir);
        TestJobs.runReporting(
            localDir.resolve("r.json"), "--job", localJob.toString(), "--home", localDir + "/h");

        Path gcsDir = Files.createDirectories(dir.resolve("gcs"));
        Path gcsJob = TestJobs.sample(gcsDir);
        String yaml = Files.readString(gcsJob);
        String source = "uri: " + TestJobs.SAMPLE_SOURCE + "\n      format: geojson\n";
        // islands reads the GeoJSON object, pacific the FlatGeobuf one (ranged reads per tile),
        // vector the GeoJSONSeq one.
        int last = yaml.lastIndexOf(source);
        yaml =
            yaml.substring(0, last)
                    .replaceFirst(
                        java.util.regex.Pattern.quote(source),
                        "uri: gs://sources/islands.geojson\n      format: geojson\n")
                    .replace(source, "uri: gs://sources/islands.fgb\n      format: flatgeobuf\n")
                + "uri: gs://sources/islands.geojsonseq\n      format: geojsonseq\n"
                + yaml.substring(last + source.length());
        Files.writeString(gcsJob, yaml);
        TestJobs.runReporting(
            gcsDir.resolve("r.json"), "--job", gcsJob.toString(), "--home", gcsDir + "/h");
        assertEquals(tiles(localDir.resolve("out")), tiles(gcsDir.resolve("out")));

        Files.writeString(gcsJob, yaml.replace("islands.geojsonseq", "missing.geojsonseq"));
        TestJobs.Result missing =
            TestJobs.execute("run", "--job", gcsJob.toString(), "--home", gcsDir + "/h");
        assertEquals(ExitCode.BAD_INPUT, missing.code(), missing.err());
        assertTrue(missing.err().contains("layers[2].source.uri"), missing.err());
        assertTrue(missing.err().contains("no such object"), missing.err());
      } finally {
        System.clearProperty("tilebeam.gcs.endpoint");
      }
    }
  }

  /**
   * Regression: the join of claimed tiles and features iterated a tile's group twice, which Flink
   * refuses for a group larger than Beam keeps in memory (10,000 elements): "GBK result is not
   * re-iterable". Found by the million-polygon benchmark; one tile of 12,000 points reproduces it.
   */
  @Test
  void aTileWithMoreFeaturesThanAGroupHoldsInMemoryIsJoinedOnFlink() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 12_000; i++) {
      text.append("{\"type\":\"Feature\",\"id\":")
          .append(i)
          .append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
          .append(i % 120 - 60)
          .append(',')
          .append(i / 120 % 100 - 50)
          .append("]},\"properties\":{}}\n");
    }
    Path source = dir.resolve("points.geojsonseq");
    Files.writeString(source, text.toString());
    Path job = dir.resolve("points.yaml");
    Files.writeString(
        job,
        "namespace: big-group\nlayers:\n  - name: points\n    source: {uri: '"
            + source
            + "', format: geojsonseq}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 0]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: '"
            + dir.resolve("points-out")
            + "', format: geojson}\n");
    JsonNode report =
        TestJobs.runReporting(
            dir.resolve("points.json"),
            "--job",
            job.toString(),
            "--home",
            dir + "/points-home",
            "--runner=FlinkRunner",
            "--flinkMaster=[local]");
    assertEquals(1, report.get("written").asInt());
    assertEquals(12_000, report.get("featuresWritten").asInt());
  }
}
