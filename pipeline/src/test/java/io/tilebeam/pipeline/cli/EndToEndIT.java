package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.ledger.EmbeddedLedger;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole graph through the command line, on the DirectRunner and on Flink {@code [local]}, with
 * the embedded ledger: the published tiles, the ledger rows, and a second run that writes nothing.
 */
@Tag("slow")
class EndToEndIT {

  /**
   * The sample job's tile count: 85 world tiles at z0-3, 67 Pacific tiles at z2-5 and 21 vector
   * tiles at z0-2.
   */
  static final int SAMPLE_TILES = 173;

  /** Tiles of the sample's raster layer (terrain, zooms 8-10). */
  static final int SAMPLE_RASTER_TILES = 22;

  /**
   * A tile of the raster layer: bilinear from the shipped COG, Int16, deflate. Its pixels equal
   * {@code gdalwarp -et 0 -r bilinear}'s of the same tile, all but 2 of 8,743 that differ by one
   * unit (checked when it was pinned).
   */
  static final String RASTER_GOLDEN_TILE = "terrain/10/535/358.tif";

  static final String RASTER_GOLDEN =
      "sha256:b6500848cb1645f41783e128eacbebcab2d57f2d07cf28efe0e7244c3ef0c302";

  /** Tiles the sample's two overlapping Pacific extents would repeat. */
  static final int SAMPLE_DUPLICATES = 10;

  /**
   * Golden outputs: the SHA-256 of three published tiles of the sample job, one per format. They
   * change only with the algorithm version (see {@code Algorithm.VERSION}).
   */
  static final Map<String, String> GOLDEN =
      Map.of(
          "islands/0/0/0.fgb",
              "sha256:4edae5f8686b92c57ca476c69f6da12578c01b79b95000220549109f6a4fbcd6",
          "pacific/3/0/3.geojson",
              "sha256:c291e611e63c5498a2f039b3e646a1dc3085288a5bce083e4c9f6c4561a33352",
          "vector/0/0/0.mvt",
              "sha256:bf6ff98b946e648e97126cf83607bb355fff826728c556f9c695d5c0eb9f4fd6");

  @TempDir Path dir;

  private JsonNode run(Path job, String... runner) throws IOException {
    String[] args = new String[4 + runner.length];
    String[] own = {"--job", job.toString(), "--home", dir.resolve("home").toString()};
    System.arraycopy(own, 0, args, 0, own.length);
    System.arraycopy(runner, 0, args, own.length, runner.length);
    return TestJobs.runReporting(dir.resolve("report.json"), args);
  }

  /** Every published tile file (not the map preview written beside them). */
  private Map<String, String> published() throws IOException {
    return TestJobs.publishedTiles(dir.resolve("out"));
  }

  private Map<String, String> ledgerRows() throws Exception {
    Map<String, String> rows = new TreeMap<>();
    try (EmbeddedLedger ledger = EmbeddedLedger.start(dir.resolve("home"));
        Connection c = ledger.config().connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT output_uri, checksum, feature_count FROM tiles WHERE completed_at IS NOT NULL")) {
      while (rs.next()) {
        Path file = Path.of(URI.create(rs.getString(1)));
        String name = dir.resolve("out").relativize(file).toString();
        long features = rs.getLong(3);
        String ext = name.substring(name.lastIndexOf('.') + 1);
        TileFormat format = TileFormat.forExtension(ext);
        assertEquals(features, format.countFeatures(Files.readAllBytes(file)), name);
        rows.put(name, rs.getString(2));
      }
    }
    return rows;
  }

  private void runTwiceAndCheck(String... runner) throws Exception {
    Path job = TestJobs.sample(dir);
    JsonNode first = run(job, runner);
    assertEquals(SAMPLE_TILES, first.get("planned").asLong(), first.toString());
    assertEquals(SAMPLE_TILES, first.get("claimed").asLong(), first.toString());
    assertEquals(SAMPLE_TILES, first.get("written").asLong(), first.toString());
    assertEquals(0, first.get("failed").asLong(), first.toString());
    // Counted by PlanTiles on a worker, from the cover the planner kept.
    assertEquals(SAMPLE_DUPLICATES, first.get("duplicates").asLong(), first.toString());

    Map<String, String> files = published();
    assertEquals(SAMPLE_TILES, files.size());
    GOLDEN.forEach((name, sum) -> assertEquals(sum, files.get(name), name));
    // Every tile has a completed ledger row whose checksum is the file's.
    assertEquals(files, ledgerRows());

    JsonNode second = run(job, runner);
    assertEquals(SAMPLE_TILES, second.get("skippedCompleted").asLong(), second.toString());
    assertEquals(0, second.get("claimed").asLong(), second.toString());
    assertEquals(0, second.get("written").asLong(), second.toString());
    assertEquals(0, second.get("featuresRead").asLong(), second.toString());
    // Counted by the launcher, which started no pipeline.
    assertEquals(SAMPLE_DUPLICATES, second.get("duplicates").asLong(), second.toString());
    // Finished work costs only ledger look-ups: no claim statement, no pipeline.
    assertEquals(0, second.get("claimStatements").asLong(), second.toString());
    assertEquals(files, published());
    assertTrue(second.get("runId").asText().startsWith("run-"));
  }

  @Test
  void theWholeShippedSampleWithItsRasterLayerOnTheDefaultRunner() throws Exception {
    Path job = TestJobs.fullSample(dir);
    JsonNode first = run(job);
    int all = SAMPLE_TILES + SAMPLE_RASTER_TILES;
    assertEquals(all, first.get("planned").asLong(), first.toString());
    assertEquals(all, first.get("written").asLong(), first.toString());
    assertEquals(0, first.get("failed").asLong(), first.toString());
    Map<String, String> files = published();
    assertEquals(all, files.size());
    GOLDEN.forEach((name, sum) -> assertEquals(sum, files.get(name), name));
    assertEquals(RASTER_GOLDEN, files.get(RASTER_GOLDEN_TILE));
    assertEquals(files, ledgerRows());
    JsonNode second = run(job);
    assertEquals(0, second.get("claimed").asLong(), second.toString());
    assertEquals(all, second.get("skippedCompleted").asLong(), second.toString());
  }

  @Test
  void directRunner() throws Exception {
    // The DirectRunner's element checks are off by default in the CLI; here they check our coders.
    runTwiceAndCheck(
        "--runner=DirectRunner", "--enforceImmutability=true", "--enforceEncodability=true");
  }

  @Test
  void flinkRunnerLocal() throws Exception {
    runTwiceAndCheck("--runner=FlinkRunner", "--flinkMaster=[local]", "--parallelism=2");
  }
}
