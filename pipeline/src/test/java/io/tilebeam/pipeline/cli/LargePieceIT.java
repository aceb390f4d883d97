package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A feature whose piece of a tile is far larger than a sort buffer of Flink's (a country whole at a
 * low zoom): on the embedded Flink given little sort memory, the tile is published, byte for byte
 * as the DirectRunner (which sorts nothing) publishes it. Before pieces went through the join in
 * parts, Flink refused the record ("The record exceeds the maximum size of a sort buffer") and the
 * whole job failed.
 */
@Tag("slow")
class LargePieceIT {

  /**
   * Vertices of the large ring: about 2.4 MB of WKB, some ten times Flink's largest record here.
   */
  private static final int VERTICES = 150_000;

  @TempDir Path dir;

  /** A FeatureCollection: a ring of {@link #VERTICES} round (10 E, 50 N) and a small square. */
  private Path source() throws IOException {
    StringBuilder text = new StringBuilder(VERTICES * 40);
    text.append("{\"type\":\"FeatureCollection\",\"features\":[");
    text.append("{\"type\":\"Feature\",\"id\":\"large\",\"properties\":{\"name\":\"large\"},");
    text.append("\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[");
    for (int i = 0; i <= VERTICES; i++) {
      double a = 2 * Math.PI * (i % VERTICES) / VERTICES;
      // A wavy ring, so that no vertex lies on a line through its neighbours.
      double r = 5 + 0.01 * Math.sin(a * 997);
      if (i > 0) {
        text.append(',');
      }
      text.append(
          String.format(
              Locale.ROOT, "[%.7f,%.7f]", 10 + r * Math.cos(a), 50 + 0.6 * r * Math.sin(a)));
    }
    text.append("]]}},");
    text.append("{\"type\":\"Feature\",\"id\":\"small\",\"properties\":{\"name\":\"small\"},");
    text.append("\"geometry\":{\"type\":\"Polygon\",\"coordinates\":");
    text.append("[[[-60,-10],[-59,-10],[-59,-9],[-60,-9],[-60,-10]]]}}]}");
    Path file = dir.resolve("large.geojson");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private Path job(Path source, String name) throws IOException {
    Path out = dir.resolve(name).resolve("out");
    String yaml =
        String.join(
            "\n",
            "namespace: large-piece",
            "layers:",
            "  - name: shapes",
            "    source:",
            "      uri: " + source,
            "      format: geojson",
            "    extents:",
            "      - bbox: [-180, -85, 180, 85]",
            "    tileMatrixSet: WebMercatorQuad",
            "    zooms: [0, 0]",
            "    targetCrs: EPSG:3857",
            "    output:",
            "      uri: " + out,
            "      format: flatgeobuf",
            "");
    Path job = Files.createDirectories(dir.resolve(name)).resolve("job.yaml");
    Files.writeString(job, yaml);
    return job;
  }

  private JsonNode run(Path job, String name, String... runner) throws IOException {
    String[] own = {
      "--job", job.toString(), "--home", dir.resolve(name).resolve("home").toString()
    };
    String[] args = new String[own.length + runner.length];
    System.arraycopy(own, 0, args, 0, own.length);
    System.arraycopy(runner, 0, args, own.length, runner.length);
    return TestJobs.runReporting(dir.resolve(name).resolve("report.json"), args);
  }

  @Test
  void aPieceLargerThanFlinksSortBufferIsPublishedAsTheDirectRunnerPublishesIt() throws Exception {
    Path source = source();
    // 16 MB of sort memory for two slots: Flink's sort then refuses records over about 0.7 MB.
    Path conf = Files.createDirectories(dir.resolve("flink-conf"));
    Files.writeString(conf.resolve("flink-conf.yaml"), "taskmanager.memory.managed.size: 16m\n");
    JsonNode flink =
        run(
            job(source, "flink"),
            "flink",
            "--runner=FlinkRunner",
            "--flinkMaster=[local]",
            "--parallelism=2",
            "--flinkConfDir=" + conf);
    assertEquals(1, flink.get("written").asLong(), flink.toString());
    assertEquals(0, flink.get("failed").asLong(), flink.toString());
    assertEquals(2, flink.get("featuresWritten").asLong(), flink.toString());

    JsonNode direct = run(job(source, "direct"), "direct", "--runner=DirectRunner");
    assertEquals(1, direct.get("written").asLong(), direct.toString());
    Map<String, String> flinkTiles = TestJobs.publishedTiles(dir.resolve("flink").resolve("out"));
    Map<String, String> directTiles = TestJobs.publishedTiles(dir.resolve("direct").resolve("out"));
    assertEquals(directTiles, flinkTiles);
    long bytes = Files.size(dir.resolve("flink").resolve("out/shapes/0/0/0.fgb"));
    assertTrue(bytes > VERTICES * 16L, "the large ring whole in the tile: " + bytes + " bytes");
  }
}
