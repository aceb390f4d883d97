package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.sink.PostGisCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample's layers published to PostGIS tables through the command line, against a real
 * PostgreSQL with PostGIS: with the ledger in the same database (completions commit with the rows),
 * killed with SIGKILL mid-run and rerun (ledger elsewhere), and bad table names refused.
 */
@Tag("slow")
class PostGisRunIT {

  private static String schema;

  @TempDir Path dir;

  @BeforeAll
  static void schema() throws SQLException {
    schema = PostGisCluster.newSchema("run");
  }

  /** A job with the sample's islands (z0-3) and pacific (z2-5) layers, into PostGIS tables. */
  private Path job(String namespace, String tablePrefix) throws Exception {
    String source = TestJobs.SAMPLE_SOURCE;
    String yaml =
        "namespace: "
            + namespace
            + "\nlayers:\n"
            + layer("islands", source, "[-180, -85, 180, 85]", "[0, 3]", tablePrefix)
            + layer("pacific", source, "[170, -25, -165, 72]", "[2, 5]", tablePrefix);
    Path file = dir.resolve(namespace + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static String layer(String name, String source, String bbox, String zooms, String t) {
    return "  - name: "
        + name
        + "\n    source: {uri: '"
        + source
        + "', format: geojson}\n    extents: [{bbox: "
        + bbox
        + "}]\n    tileMatrixSet: WebMercatorQuad\n    zooms: "
        + zooms
        + "\n    targetCrs: EPSG:3857\n    output: {uri: '"
        + PostGisCluster.url()
        + "', format: postgis, table: "
        + schema
        + "."
        + t
        + name
        + "}\n";
  }

  /** Each tile's rows of a table, digested: feature ids, geometry and properties, in id order. */
  private static Map<String, String> tables(String tablePrefix) throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(PostGisCluster.url());
        Statement s = c.createStatement()) {
      for (String layer : new String[] {"islands", "pacific"}) {
        try (ResultSet r =
            s.executeQuery(
                "SELECT z, x, y, md5(string_agg(feature_id || ST_AsText(geom) || properties::text,"
                    + " ',' ORDER BY feature_id)) FROM "
                    + schema
                    + "."
                    + tablePrefix
                    + layer
                    + " GROUP BY z, x, y")) {
          while (r.next()) {
            out.put(
                layer + "/" + r.getInt(1) + "/" + r.getLong(2) + "/" + r.getLong(3),
                r.getString(4));
          }
        }
      }
    }
    return out;
  }

  @Test
  void inTheLedgersDatabaseTheSampleLayersPublishRerunAndVerify() throws Exception {
    Path job = job("postgis-same-db", "same_");
    String ledger = PostGisCluster.url();
    JsonNode report =
        TestJobs.runReporting(
            dir.resolve("report.json"), "--job", job.toString(), "--ledger", ledger);
    assertEquals(0, report.get("failed").asInt());
    int tiles = report.get("written").asInt();
    assertEquals(85 + 67, tiles, report.toString());
    Map<String, String> rows = tables("same_");
    assertTrue(rows.size() > 20 && rows.size() <= tiles, "tiles with features: " + rows.size());
    try (Connection c = DriverManager.getConnection(ledger);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*) FROM tilebeam.tiles WHERE namespace = 'postgis-same-db'"
                    + " AND completed_at IS NOT NULL AND output_uri LIKE 'postgis:%'")) {
      r.next();
      assertEquals(tiles, r.getInt(1));
    }

    JsonNode again =
        TestJobs.runReporting(
            dir.resolve("again.json"), "--job", job.toString(), "--ledger", ledger);
    assertEquals(tiles, again.get("skippedCompleted").asInt());
    assertEquals(rows, tables("same_"));

    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--ledger", ledger);
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());

    try (Connection c = DriverManager.getConnection(ledger);
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM " + schema + ".same_islands WHERE z = 0");
    }
    TestJobs.Result broken =
        TestJobs.execute("verify", "--job", job.toString(), "--ledger", ledger);
    assertEquals(ExitCode.TILES_FAILED, broken.code(), broken.out());
    assertTrue(broken.out().contains("islands 0/0/0"), broken.out());
  }

  @Test
  void aRunKilledWhileWritingRowsIsFinishedByTheNextOneWithTheCleanResult() throws Exception {
    Path job = job("postgis-killed", "killed_");
    Path home = dir.resolve("home");
    Process run =
        TestJobs.startRun(job, dir.resolve("killed.log"), Map.of(), "--home", home.toString());
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (run.isAlive() && System.nanoTime() < deadline && rowsSoFar("killed_islands") == 0) {
      Thread.sleep(10);
    }
    assertTrue(run.isAlive(), "the run finished before it could be killed: see killed.log");
    run.destroyForcibly(); // SIGKILL: its open transaction is rolled back by the server
    assertTrue(run.waitFor(30, TimeUnit.SECONDS));

    TestJobs.Result rerun =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, rerun.code(), rerun.err());

    Path clean = job("postgis-clean", "clean_");
    TestJobs.Result cleanRun =
        TestJobs.execute("run", "--job", clean.toString(), "--home", dir + "/clean-home");
    assertEquals(ExitCode.OK, cleanRun.code(), cleanRun.err());
    assertEquals(tables("clean_"), tables("killed_"));

    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
  }

  /** The rows of a table, 0 while it does not exist. */
  private static long rowsSoFar(String table) throws SQLException {
    try (Connection c = DriverManager.getConnection(PostGisCluster.url());
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery("SELECT to_regclass('" + schema + "." + table + "') IS NULL")) {
        r.next();
        if (r.getBoolean(1)) {
          return 0;
        }
      }
      try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + schema + "." + table)) {
        r.next();
        return r.getLong(1);
      }
    }
  }

  @Test
  void tableNamesThatAreNotPlainIdentifiersAreRefusedBeforeAnythingIsWritten() throws Exception {
    for (String table : new String[] {"../etc", "Islands", "a;drop table x", "x.y.z"}) {
      Path job = job("postgis-bad", "bad_");
      Files.writeString(
          job,
          Files.readString(job)
              .replace("table: " + schema + ".bad_islands", "table: '" + table + "'"));
      TestJobs.Result r =
          TestJobs.execute("run", "--job", job.toString(), "--home", dir + "/bad-home");
      assertEquals(ExitCode.BAD_INPUT, r.code(), table + ": " + r.err());
      assertTrue(r.err().contains("output.table"), r.err());
      assertTrue(r.err().contains(table), r.err());
    }
    assertEquals(0, rowsSoFar("bad_pacific"));
  }
}
