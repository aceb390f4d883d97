package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad jobs exit 2 with the field and the value, before anything is written or claimed. */
class BadJobTest {

  @TempDir Path dir;

  private static final String SAMPLE = TestJobs.SAMPLE_SOURCE;

  private String job(String layer) {
    return "namespace: bad-jobs\nlayers:\n" + layer;
  }

  private String layer(String replace, String with) {
    String base =
        "  - name: islands\n"
            + "    source:\n"
            + "      uri: "
            + SAMPLE
            + "\n"
            + "      format: geojson\n"
            + "    extents:\n"
            + "      - bbox: [-10, 40, 10, 60]\n"
            + "    tileMatrixSet: WebMercatorQuad\n"
            + "    zooms: [0, 3]\n"
            + "    targetCrs: EPSG:3857\n"
            + "    output:\n"
            + "      uri: OUT\n" // the test's output directory, filled in last
            + "      format: flatgeobuf\n";
    if (!base.contains(replace)) {
      throw new IllegalArgumentException("no '" + replace + "' in the base job");
    }
    return base.replace(replace, with)
        .replace("      uri: OUT", "      uri: " + dir.resolve("out"));
  }

  private TestJobs.Result run(String yaml, String... extra) throws IOException {
    Path job = dir.resolve("job.yaml");
    Files.writeString(job, yaml);
    String[] args = new String[4 + 2 + extra.length];
    args[0] = "run";
    args[1] = "--job";
    args[2] = job.toString();
    args[3] = "--home";
    args[4] = dir.resolve("home").toString();
    args[5] = "--runner=DirectRunner";
    System.arraycopy(extra, 0, args, 6, extra.length);
    return TestJobs.execute(args);
  }

  private void assertRefused(TestJobs.Result r, String... fragments) {
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    for (String f : fragments) {
      assertTrue(r.err().contains(f), "'" + f + "' not in: " + r.err());
    }
    assertFalse(Files.exists(dir.resolve("home")), "the ledger was created");
    assertFalse(Files.exists(dir.resolve("out")), "output was written");
  }

  static Stream<Arguments> badJobs() {
    return Stream.of(
        // a missing field
        Arguments.of("    targetCrs: EPSG:3857\n", "", "layers[0].targetCrs", "missing"),
        // an unknown format
        Arguments.of("format: flatgeobuf", "format: shp", "layers[0].output.format", "'shp'"),
        // a raster encoding for features
        Arguments.of(
            "format: flatgeobuf",
            "format: geotiff",
            "layers[0].output.format",
            "geotiff output needs a raster source"),
        // an unknown CRS
        Arguments.of("EPSG:3857", "EPSG:999999", "layers[0].targetCrs", "'EPSG:999999'"),
        // south > north
        Arguments.of(
            "[-10, 40, 10, 60]",
            "[-10, 60, 10, 40]",
            "layers[0].extents[0].bbox",
            "south 60.0 is greater than north 40.0"),
        // a reversed zoom range
        Arguments.of("[0, 3]", "[5, 2]", "layers[0].zooms", "reversed"),
        // an unknown field (a typo)
        Arguments.of(
            "    zooms:", "    zoom: [0, 1]\n    zooms:", "layers[0].zoom", "unknown field"),
        // a missing source file
        Arguments.of("uri: /", "uri: /nonexistent/", "layers[0].source.uri", "no such file"),
        // a directory as the source
        Arguments.of(
            "uri: " + SAMPLE,
            "uri: " + Path.of(SAMPLE).getParent(),
            "layers[0].source.uri",
            "is a directory, not a file (name the file in it)"),
        // latitudes beyond ±90, refused as longitudes beyond ±180 are
        Arguments.of(
            "[-10, 40, 10, 60]",
            "[-10, -95, 10, 60]",
            "layers[0].extents[0].bbox",
            "south -95.0 outside [-90.0, 90.0]"),
        // longitudes beyond ±180
        Arguments.of(
            "[-10, 40, 10, 60]", "[-190, 40, 10, 60]", "layers[0].extents[0].bbox", "-190"),
        // an unknown tile matrix set
        Arguments.of("WebMercatorQuad", "MarsQuad", "layers[0].tileMatrixSet", "'MarsQuad'"),
        // an unknown CRS on an extent
        Arguments.of(
            "      - bbox: [-10, 40, 10, 60]\n",
            "      - bbox: [-10, 40, 10, 60]\n        crs: EPSG:0\n",
            "layers[0].extents[0].crs",
            "'EPSG:0'"),
        // an output location of a scheme this version cannot write
        Arguments.of(
            "      uri: OUT",
            "      uri: ftp://host/tiles",
            "layers[0].output.uri",
            "'ftp://host/tiles'"),
        // an output directory that cannot be written: a regular file stands in its way
        Arguments.of(
            "      uri: OUT",
            "      uri: /etc/hostname/tiles",
            "layers[0].output.uri",
            "'/etc/hostname/tiles'"),
        // a layer name that tries to climb out of the output directory
        Arguments.of("name: islands", "name: ../islands", "layers[0].name", "'../islands'"),
        Arguments.of("name: islands", "name: _tmp", "layers[0].name", "reserved for _failed"),
        // a tile matrix set file that is not one
        Arguments.of(
            "WebMercatorQuad",
            "/nonexistent/grid.json",
            "layers[0].tileMatrixSet",
            "'/nonexistent/grid.json'"));
  }

  @ParameterizedTest
  @MethodSource("badJobs")
  void badJobsExitTwoNamingFieldAndValue(String replace, String with, String field, String value)
      throws IOException {
    assertRefused(run(job(layer(replace, with))), field, value);
  }

  @Test
  void vectorTilesNeedWebMercatorTilesInWebMercator() throws IOException {
    String mvt = layer("format: flatgeobuf", "format: mvt");
    assertRefused(
        run(job(mvt.replace("targetCrs: EPSG:3857", "targetCrs: EPSG:4326"))),
        "layers[0].targetCrs",
        "'EPSG:4326'");
    assertRefused(
        run(
            job(
                mvt.replace("tileMatrixSet: WebMercatorQuad", "tileMatrixSet: WorldCRS84Quad")
                    .replace("[0, 3]", "[0, 2]"))),
        "layers[0].tileMatrixSet",
        "'WorldCRS84Quad'");
  }

  @Test
  void aTileMatrixSetWithUnnamedAxesIsRefusedNamingTheFile() throws IOException {
    Path tms = dir.resolve("grid.json");
    Files.writeString(
        tms,
        "{\"id\":\"g\",\"crs\":\"EPSG:3857\",\"orderedAxes\":[\"A\",\"B\"],"
            + "\"tileMatrices\":[{\"cellSize\":1,\"pointOfOrigin\":[0,0],\"tileWidth\":256,"
            + "\"tileHeight\":256,\"matrixWidth\":1,\"matrixHeight\":1}]}");
    assertRefused(
        run(job(layer("WebMercatorQuad", tms.toString()))),
        "layers[0].tileMatrixSet",
        tms.toString(),
        "orderedAxes");
  }

  @Test
  void planOverTheTileBudgetIsRefusedWithItsCount() throws IOException {
    assertRefused(run(job(layer("x", "x")), "--tile-budget", "2"), "--tile-budget", "plans");
  }

  @Test
  void unreachableLedgerExitsOneNamingTheMaskedUrlWithNothingWritten() throws IOException {
    TestJobs.Result r =
        run(
            job(layer("x", "x")),
            "--ledger",
            "jdbc:postgresql://127.0.0.1:1/tiles?user=bob&password=secret");
    assertEquals(ExitCode.ERROR, r.code(), r.err());
    assertTrue(
        r.err().contains("jdbc:postgresql://127.0.0.1:1/tiles?user=bob&password=***"), r.err());
    assertFalse(r.err().contains("secret"), r.err());
    assertFalse(Files.exists(dir.resolve("out")), "output was written");
  }

  /**
   * Dataflow's workers are other machines: this machine's ledger, files and directories are not.
   */
  @Test
  void dataflowIsRefusedWhatItsWorkersCannotReach() throws IOException {
    assertRefused(
        run(job(layer("x", "x")), "--runner=DataflowRunner"),
        "--runner=DataflowRunner",
        "embedded ledger");
    assertRefused(
        run(
            job(layer("x", "x")),
            "--runner=DataflowRunner",
            "--ledger",
            "jdbc:postgresql://127.0.0.1:1/tiles?user=bob"),
        "layers[0].source.uri",
        "a file on this machine");
  }

  @Test
  void unknownCommandAndBadFlagsExitTwo() throws IOException {
    assertRefused(run(job(layer("x", "x")), "--task-timeout", "soon"), "--task-timeout", "soon");
    assertEquals(ExitCode.BAD_INPUT, TestJobs.execute("explode").code());
  }
}
