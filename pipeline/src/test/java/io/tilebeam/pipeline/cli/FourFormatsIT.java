package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.sink.PostGisCluster;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.io.source.NodeScripts;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.JobSpecParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sample job over the sample data in each of the source formats, the FlatGeobuf file and the
 * PostGIS table made by GDAL's {@code ogr2ogr} as users make them, the GeoParquet files by the npm
 * packages hyparquet-writer and DuckDB (this GDAL has no Parquet driver), publishes byte-identical
 * tiles: FlatGeobuf and PostGIS are read per tile through their indexes, GeoJSON in one pass.
 */
@Tag("slow")
class FourFormatsIT {

  private static final String GEOJSON_SOURCE =
      "uri: " + TestJobs.SAMPLE_SOURCE + "\n      format: geojson\n";

  @TempDir static Path dir;
  private static String schema;
  private static Map<String, String> geoJsonTiles;

  @BeforeAll
  static void loadSourcesAndRunTheGeoJsonJob() throws Exception {
    Gdal.ogr2ogr("-f", "FlatGeobuf", dir.resolve("islands.fgb").toString(), TestJobs.SAMPLE_SOURCE);
    Gdal.ogr2ogr(
        "-f",
        "FlatGeobuf",
        "-lco",
        "SPATIAL_INDEX=NO",
        dir.resolve("islands-noindex.fgb").toString(),
        TestJobs.SAMPLE_SOURCE);
    schema = PostGisCluster.newSchema("formats");
    Gdal.ogr2ogr(
        "-f",
        "PostgreSQL",
        Gdal.pgConnection(PostGisCluster.url()),
        TestJobs.SAMPLE_SOURCE,
        "-nln",
        schema + ".islands");
    geoJsonTiles = run("geojson", GEOJSON_SOURCE);
    EndToEndIT.GOLDEN.forEach((name, sum) -> assertEquals(sum, geoJsonTiles.get(name), name));
  }

  /** Runs the sample job with every layer's source replaced; returns the published tiles. */
  private static Map<String, String> run(String name, String source) throws Exception {
    return runReporting(name, source).tiles();
  }

  /** What a run published, and its report. */
  private record Published(Map<String, String> tiles, JsonNode report) {}

  private static Published runReporting(String name, String source) throws Exception {
    Path at = Files.createDirectories(dir.resolve(name));
    Path job = TestJobs.sample(at);
    String yaml = Files.readString(job);
    assertTrue(yaml.contains(GEOJSON_SOURCE), yaml);
    Files.writeString(job, yaml.replace(GEOJSON_SOURCE, source));
    JsonNode report =
        TestJobs.runReporting(
            at.resolve("report.json"), "--job", job.toString(), "--home", at + "/home");
    assertEquals(0, report.get("failed").asInt(), report.toString());
    assertEquals(0, report.get("featuresDeadLettered").asInt(), report.toString());
    return new Published(TestJobs.publishedTiles(at.resolve("out")), report);
  }

  private static String postgis(String version) {
    return "uri: '"
        + PostGisCluster.url()
        + "'\n      format: postgis\n      table: "
        + schema
        + ".islands\n      version: '"
        + version
        + "'\n";
  }

  @Test
  void flatGeobufReadPerTileThroughItsIndex() throws Exception {
    assertEquals(
        geoJsonTiles,
        run("fgb", "uri: " + dir.resolve("islands.fgb") + "\n      format: flatgeobuf\n"));
  }

  @Test
  void flatGeobufWithoutAnIndexReadInOnePass() throws Exception {
    assertEquals(
        geoJsonTiles,
        run(
            "fgb-noindex",
            "uri: " + dir.resolve("islands-noindex.fgb") + "\n      format: flatgeobuf\n"));
  }

  /**
   * GeoParquet written by an independent writer (npm hyparquet-writer: dictionary pages, Snappy, a
   * bbox covering column), four rows a row group, each row group a split of its own.
   */
  @Test
  void geoParquetReadByRowGroups() throws Exception {
    Path file = dir.resolve("islands.parquet");
    NodeScripts.run(
        NodeScripts.class,
        "write-geoparquet.mjs",
        dir,
        TestJobs.SAMPLE_SOURCE,
        file.toString(),
        "4");
    assertEquals(
        geoJsonTiles,
        run("geoparquet", "uri: " + file + "\n      format: geoparquet\n      idColumn: id\n"));
  }

  /**
   * GeoParquet written by DuckDB's own Parquet writer (the npm package @duckdb/node-api), in each
   * codec it writes and both data page versions (v2: delta encodings, BYTE_STREAM_SPLIT), with a
   * list and a map column beside the properties: the same tiles as from GeoJSON, the list and map
   * named in the report as columns not read.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"zstd, V2", "lz4, V2", "snappy, V1", "gzip, V1", "brotli, V2", "uncompressed, V2"})
  void geoParquetWrittenByDuckDb(String codec, String version) throws Exception {
    Path file = dir.resolve("islands-duckdb-" + codec + ".parquet");
    NodeScripts.run(
        NodeScripts.class,
        "write-geoparquet-duckdb.mjs",
        dir,
        TestJobs.SAMPLE_SOURCE,
        file.toString(),
        codec,
        "2048",
        version);
    Published p =
        runReporting(
            "duckdb-" + codec, "uri: " + file + "\n      format: geoparquet\n      idColumn: id\n");
    assertEquals(geoJsonTiles, p.tiles());
    JsonNode skipped = p.report().get("skippedColumns");
    for (String layer : new String[] {"islands", "pacific", "vector"}) {
      assertEquals("[\"tags\",\"attrs\"]", skipped.path(layer).toString(), p.report().toString());
    }
    // Said once per layer when the job is planned, and logged from there.
    JobPlan plan =
        JobPlan.resolve(JobSpecParser.parse(dir.resolve("duckdb-" + codec).resolve("job.yaml")));
    long said =
        plan.warnings().stream()
            .filter(
                w ->
                    w.endsWith(
                        "columns not read as properties: tags (a list or map), attrs (a list or map)"))
            .count();
    assertEquals(3, said, plan.warnings().toString());
  }

  @Test
  void postGisTableReadPerTile() throws Exception {
    assertEquals(geoJsonTiles, run("postgis", postgis("2026-11-30")));
  }

  @Test
  void postGisQueryWithAVersionQuery() throws Exception {
    String source =
        "uri: '"
            + PostGisCluster.url()
            + "'\n      format: postgis\n      query: \"SELECT id, name, iso, kind, capital,"
            + " population, area_km2, wkb_geometry FROM "
            + schema
            + ".islands\"\n      versionQuery: \"SELECT md5(string_agg(i::text,"
            + " ',' ORDER BY ogc_fid)) FROM "
            + schema
            + ".islands i\"\n";
    assertEquals(geoJsonTiles, run("postgis-query", source));
  }

  /**
   * Changing one byte of a source re-keys every tile of its layer and of no other layer; for a
   * PostGIS source, changing its version does.
   */
  @Test
  void oneChangedByteReKeysItsLayerOnly() throws Exception {
    Path fgb = dir.resolve("islands.fgb");
    Path changed = dir.resolve("islands-changed.fgb");
    byte[] bytes = Files.readAllBytes(fgb);
    // A byte of the last feature's last coordinate, so the file stays whole and readable.
    bytes[bytes.length - 3] ^= 1;
    Files.write(changed, bytes);

    Map<String, String> before = keys("keys-before", fgb.toString(), "1");
    Map<String, String> after = keys("keys-after", changed.toString(), "1");
    Map<String, String> version = keys("keys-version", fgb.toString(), "2");
    int islands = 0;
    for (Map.Entry<String, String> e : before.entrySet()) {
      String layer = e.getKey().substring(0, e.getKey().indexOf('/'));
      if (layer.equals("islands")) {
        islands++;
        assertNotEquals(e.getValue(), after.get(e.getKey()), e.getKey());
      } else {
        assertEquals(e.getValue(), after.get(e.getKey()), e.getKey());
      }
      // The PostGIS layer (vector) alone changes with its version.
      assertEquals(
          layer.equals("vector"), !e.getValue().equals(version.get(e.getKey())), e.getKey());
    }
    assertTrue(islands > 0);
  }

  /** The planned keys, by layer and tile, with islands from {@code fgb} and vector from PostGIS. */
  private static Map<String, String> keys(String name, String fgb, String version)
      throws Exception {
    Path at = Files.createDirectories(dir.resolve(name));
    Path job = TestJobs.sample(at);
    String yaml = Files.readString(job);
    int last = yaml.lastIndexOf(GEOJSON_SOURCE);
    yaml =
        yaml.substring(0, last) + postgis(version) + yaml.substring(last + GEOJSON_SOURCE.length());
    yaml =
        yaml.replaceFirst(
            java.util.regex.Pattern.quote(GEOJSON_SOURCE),
            "uri: " + fgb + "\n      format: flatgeobuf\n");
    Files.writeString(job, yaml);
    Path tiles = at.resolve("tiles.jsonl");
    TestJobs.Result r = TestJobs.plan(job, at, tiles);
    assertEquals(0, r.code(), r.err());
    ObjectMapper json = new ObjectMapper();
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(tiles)) {
      JsonNode t = json.readTree(line);
      out.put(
          t.get("layer").asText() + "/" + t.get("z") + "/" + t.get("x") + "/" + t.get("y"),
          t.get("key").asText());
    }
    return out;
  }

  /** A PostGIS source's bad settings are named before anything runs. */
  @Test
  void badPostGisSettingsAreNamed() throws Exception {
    Map<String, String> cases =
        Map.of(
            postgis("1").replace("version: '1'", "version: ''"),
            "layers[0].source.version",
            postgis("1").replace(".islands", ".nowhere"),
            "layers[0].source.table",
            postgis("1") + "      geometryColumn: name\n",
            "layers[0].source.geometryColumn",
            postgis("1") + "      idColumn: nope\n",
            "layers[0].source.idColumn",
            postgis("1").replace("      version: '1'\n", ""),
            "layers[0].source.version");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      Path at = Files.createDirectories(dir.resolve("bad-" + Math.abs(c.getKey().hashCode())));
      Path job = TestJobs.sample(at);
      Files.writeString(
          job,
          Files.readString(job)
              .replaceFirst(java.util.regex.Pattern.quote(GEOJSON_SOURCE), c.getKey()));
      TestJobs.Result r = TestJobs.execute("run", "--job", job.toString(), "--home", at + "/home");
      assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
      assertTrue(r.err().contains(c.getValue()), c.getValue() + " in " + r.err());
      assertTrue(Files.notExists(at.resolve("out")) || isEmpty(at.resolve("out")), r.err());
    }
  }

  /** A FlatGeobuf file whose header contradicts the job's CRS is refused, naming both. */
  @Test
  void aContradictoryCrsIsRefused() throws Exception {
    Path at = Files.createDirectories(dir.resolve("crs"));
    Path job = TestJobs.sample(at);
    Files.writeString(
        job,
        Files.readString(job)
            .replaceFirst(
                java.util.regex.Pattern.quote(GEOJSON_SOURCE + "      crs: EPSG:4326\n"),
                "uri: "
                    + dir.resolve("islands.fgb")
                    + "\n      format: flatgeobuf\n      crs: EPSG:3857\n"));
    TestJobs.Result r = TestJobs.execute("run", "--job", job.toString(), "--home", at + "/home");
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("layers[0].source.crs"), r.err());
    assertTrue(r.err().contains("contradicts the CRS the source declares (EPSG:4326)"), r.err());
  }

  private static boolean isEmpty(Path p) throws Exception {
    try (var s = Files.list(p)) {
      return s.findAny().isEmpty();
    }
  }
}
