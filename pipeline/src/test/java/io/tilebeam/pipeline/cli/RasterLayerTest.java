package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.raster.TestRasters;
import io.tilebeam.io.source.Gdal;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A raster layer end to end: a UTM GeoTIFF cut into Web Mercator GeoTIFF and PNG tiles through the
 * ledger, each tile published once; a rerun claims nothing; changing only the resampling, or only
 * the output no-data, re-keys every tile of the layer.
 */
class RasterLayerTest {

  @TempDir static Path dir;

  private static Path source;

  @BeforeAll
  static void makeSource() throws Exception {
    source = TestRasters.utmDem(Files.createDirectories(dir.resolve("src")));
  }

  /** The test's source. */
  static Path source() {
    return source;
  }

  /**
   * A job of two raster layers of {@code source} writing below {@code home}/out: {@code dem} as
   * GeoTIFF at zooms 9 to {@code demMaxZoom}, {@code shade} as PNG at zoom 10.
   */
  static Path job(Path source, Path home, int demMaxZoom, String demParams, String pngParams)
      throws Exception {
    Path out = home.resolve("out");
    String text =
        "namespace: raster-test\nlayers:\n"
            + layer("dem", source, 9, demMaxZoom, out, "geotiff", demParams)
            + layer("shade", source, 10, 10, out, "png", pngParams);
    Path job = home.resolve("job.yaml");
    Files.writeString(job, text);
    return job;
  }

  /** One raster layer of {@code source} over the test's box, as job YAML. */
  private static String layer(
      String name, Path source, int minZoom, int maxZoom, Path out, String format, String params) {
    return "  - name: "
        + name
        + "\n"
        + "    source: {uri: "
        + source
        + ", format: geotiff}\n"
        + "    extents: [{bbox: [7.7, 46.96, 8.47, 47.3]}]\n"
        + "    tileMatrixSet: WebMercatorQuad\n"
        + "    zooms: ["
        + minZoom
        + ", "
        + maxZoom
        + "]\n"
        + "    targetCrs: EPSG:3857\n"
        + "    output: {uri: "
        + out
        + ", format: "
        + format
        + "}\n"
        + "    params: "
        + params
        + "\n";
  }

  private static Path job(Path home, String demParams, String pngParams) throws Exception {
    return job(source, home, 11, demParams, pngParams);
  }

  private static JsonNode run(Path home, Path job) throws Exception {
    return TestJobs.runReporting(
        home.resolve("report.json"),
        "--job",
        job.toString(),
        "--home",
        home.resolve("h").toString());
  }

  private static List<Path> files(Path out, String ext) throws Exception {
    try (Stream<Path> s = Files.walk(out)) {
      return s.filter(p -> p.toString().endsWith(ext)).sorted().toList();
    }
  }

  @Test
  void aRasterLayerIsCutPublishedOnceAndReKeyedByItsSettings() throws Exception {
    Path home = Files.createDirectories(dir.resolve("run"));
    String dem = "{resampling: bilinear}";
    String png = "{dataType: uint16, outputNodata: 0}";
    JsonNode first = run(home, job(home, dem, png));
    long planned = first.get("planned").asLong();
    // Zooms 9-11 of the dem (6 + 12 + 24 tiles) and zoom 10 of the shade (12).
    assertEquals(54, planned, first.toString());
    assertEquals(planned, first.get("written").asLong(), first.toString());
    assertEquals(0, first.get("failed").asLong(), first.toString());

    List<Path> tiffs = files(home.resolve("out/dem"), ".tif");
    assertEquals(42, tiffs.size());
    JsonNode info =
        new ObjectMapper()
            .readTree(
                Gdal.run("gdalinfo", "-json", home.resolve("out/dem/11/1068/718.tif").toString()));
    assertTrue(info.at("/coordinateSystem/wkt").asText().contains("ID[\"EPSG\",3857]"));
    assertEquals("Int16", info.at("/bands/0/type").asText());
    assertEquals(TestRasters.NODATA, info.at("/bands/0/noDataValue").asDouble());
    List<Path> pngs = files(home.resolve("out/shade"), ".png");
    assertEquals(12, pngs.size());
    BufferedImage image = ImageIO.read(pngs.get(0).toFile());
    assertEquals(256, image.getWidth());
    assertEquals(16, image.getColorModel().getComponentSize(0));
    Map<String, String> before = TestJobs.publishedTiles(home.resolve("out"));

    JsonNode again = run(home, job(home, dem, png));
    assertEquals(0, again.get("claimed").asLong(), again.toString());
    assertEquals(planned, again.get("skippedCompleted").asLong(), again.toString());
    assertEquals(before, TestJobs.publishedTiles(home.resolve("out")));

    // Only the resampling changes: every dem tile is new work, the png layer is untouched.
    JsonNode nearest = run(home, job(home, "{resampling: nearest}", png));
    assertEquals(42, nearest.get("claimed").asLong(), nearest.toString());
    assertEquals(12, nearest.get("skippedCompleted").asLong(), nearest.toString());

    // Only the output no-data changes: every png tile is new work.
    JsonNode nodata =
        run(home, job(home, "{resampling: nearest}", "{dataType: uint16, outputNodata: 1}"));
    assertEquals(12, nodata.get("claimed").asLong(), nodata.toString());
    assertEquals(42, nodata.get("skippedCompleted").asLong(), nodata.toString());
  }

  @Test
  void whatARasterCannotBeIsRefusedBeforeAnyClaim() throws Exception {
    Path home = Files.createDirectories(dir.resolve("bad"));
    for (String[] bad :
        new String[][] {
          {"{resampling: spline}", "{}", "layers[0].params.resampling", "unknown resampling"},
          {"{bands: [2]}", "{}", "layers[0].params.bands", "band 2 does not exist"},
          {"{}", "{}", "layers[1].output.format", "png holds 1 band of uint8 or uint16"},
          {"{bufferPixels: 8}", "{}", "layers[0].params.bufferPixels", "unknown raster parameter"},
        }) {
      TestJobs.Result r =
          TestJobs.execute(
              "run",
              "--job",
              job(
                      home,
                      bad[0],
                      bad[1].equals("{}") && bad[2].startsWith("layers[1]")
                          ? "{}"
                          : "{dataType: uint16}")
                  .toString(),
              "--home",
              home.resolve("h").toString());
      assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
      assertTrue(r.err().contains(bad[2]), r.err());
      assertTrue(r.err().contains(bad[3]), r.err());
      assertTrue(!Files.exists(home.resolve("out")), "nothing written");
    }
  }
}
