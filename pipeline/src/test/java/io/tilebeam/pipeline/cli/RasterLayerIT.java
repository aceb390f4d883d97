package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.transforms.raster.TestRasters;
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
class RasterLayerIT {

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
    Files.createDirectories(home);
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

  /**
   * A GeoTIFF that declares no CRS (its georeferencing kept, its CRS removed by {@code gdal_edit.py
   * -a_srs ""}, which also moves its directory to the file's end) is refused without {@code
   * source.crs}, naming the field, and cut with it into the same pixels as the file that declares
   * the same CRS.
   */
  @Test
  void aGeoTiffWithoutACrsTakesTheJobs() throws Exception {
    Path home = Files.createDirectories(dir.resolve("bare"));
    Path bare = home.resolve("bare.tif");
    Files.copy(source, bare);
    Gdal.run("gdal_edit.py", "-a_srs", "", bare.toString());
    for (String[] run :
        new String[][] {
          {"declared", source.toString(), ""}, {"given", bare.toString(), ", crs: EPSG:32632"}
        }) {
      Path job = home.resolve(run[0] + ".yaml");
      Files.writeString(
          job,
          "namespace: raster-crs-"
              + run[0]
              + "\nlayers:\n  - name: dem\n"
              + "    source: {uri: "
              + run[1]
              + ", format: geotiff"
              + run[2]
              + "}\n"
              + "    extents: [{bbox: [7.7, 46.96, 8.47, 47.3]}]\n"
              + "    tileMatrixSet: WebMercatorQuad\n    zooms: [10, 10]\n"
              + "    targetCrs: EPSG:3857\n"
              + "    output: {uri: "
              + home.resolve(run[0])
              + ", format: geotiff}\n"
              + "    params: {resampling: bilinear}\n");
      JsonNode report = run(home.resolve(run[0] + "-home"), job);
      assertEquals(0, report.get("failed").asLong(), report.toString());
    }
    List<Path> declared = files(home.resolve("declared"), ".tif");
    List<Path> given = files(home.resolve("given"), ".tif");
    assertEquals(declared.size(), given.size());
    assertTrue(declared.size() >= 6, declared.toString());
    for (int i = 0; i < declared.size(); i++) {
      assertEquals(
          gdalPixels(declared.get(i)), gdalPixels(given.get(i)), declared.get(i).toString());
    }

    Path refused = home.resolve("refused.yaml");
    Files.writeString(
        refused, Files.readString(home.resolve("given.yaml")).replace(", crs: EPSG:32632", ""));
    TestJobs.Result r =
        TestJobs.execute(
            "run", "--job", refused.toString(), "--home", home.resolve("refused-home").toString());
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("layers[0].source.crs"), r.err());
  }

  /**
   * A mosaic of two overlapping halves of the source, listed or as a directory, gives the same
   * tiles either way; a rerun claims nothing; listing them the other way round re-keys every tile;
   * files that disagree (a second band) are refused, naming the field.
   */
  @Test
  void aMosaicIsOneSourceKeyedByAllItsFilesInOrder() throws Exception {
    Path home = Files.createDirectories(dir.resolve("mosaic"));
    Path parts = Files.createDirectories(home.resolve("parts"));
    List<Path> halves = TestRasters.westAndEast(source, parts);
    Path west = halves.get(0);
    Path east = halves.get(1);
    String listed = "[" + west + ", " + east + "]";
    JsonNode first = run(home.resolve("h1"), mosaicJob(home, "listed", listed));
    JsonNode fromDirectory =
        run(home.resolve("h2"), mosaicJob(home, "directory", parts.toString()));
    assertEquals(0, first.get("failed").asLong(), first.toString());
    assertEquals(first.get("written"), fromDirectory.get("written"));
    List<Path> a = files(home.resolve("listed"), ".tif");
    List<Path> b = files(home.resolve("directory"), ".tif");
    assertEquals(a.size(), b.size());
    for (int i = 0; i < a.size(); i++) {
      assertEquals(-1L, Files.mismatch(a.get(i), b.get(i)), a.get(i).toString());
    }
    JsonNode again = run(home.resolve("h1"), mosaicJob(home, "listed", listed));
    assertEquals(0, again.get("claimed").asLong(), again.toString());
    JsonNode reordered =
        run(home.resolve("h1"), mosaicJob(home, "listed", "[" + east + ", " + west + "]"));
    assertEquals(first.get("planned"), reordered.get("claimed"), reordered.toString());

    Path twoBands = parts.resolve("c-two-bands.tif");
    Gdal.run("gdal_translate", "-q", "-b", "1", "-b", "1", west.toString(), twoBands.toString());
    TestJobs.Result r =
        TestJobs.execute(
            "run",
            "--job",
            mosaicJob(home, "refused", parts.toString()).toString(),
            "--home",
            home.resolve("h3").toString());
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("layers[0].source.uri"), r.err());
    assertTrue(r.err().contains("must agree"), r.err());
  }

  private static Path mosaicJob(Path home, String name, String uri) throws Exception {
    Path job = home.resolve(name + ".yaml");
    Files.writeString(
        job,
        "namespace: raster-mosaic\nlayers:\n  - name: dem\n"
            + "    source: {uri: "
            + uri
            + ", format: geotiff}\n"
            + "    extents: [{bbox: [7.7, 46.96, 8.47, 47.3]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [10, 11]\n"
            + "    targetCrs: EPSG:3857\n"
            + "    output: {uri: "
            + home.resolve(name)
            + ", format: geotiff}\n"
            + "    params: {resampling: bilinear}\n");
    return job;
  }

  /** A GeoTIFF cut short is refused at planning, naming the field, and nothing is claimed. */
  @Test
  void aGeoTiffCutShortIsRefusedBeforeAnyClaim() throws Exception {
    Path home = Files.createDirectories(dir.resolve("cut"));
    byte[] whole = Files.readAllBytes(source);
    Path cut =
        Files.write(home.resolve("cut.tif"), java.util.Arrays.copyOf(whole, whole.length - 1000));
    Path job = mosaicJob(home, "cut", cut.toString());
    TestJobs.Result r =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.resolve("h").toString());
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("layers[0].source.uri"), r.err());
    assertTrue(r.err().contains("cut short"), r.err());
    assertTrue(!Files.exists(home.resolve("cut")), "nothing written");
  }

  /** A GeoTIFF's pixels as {@code gdalinfo -checksum} sums them, with its georeferencing. */
  /**
   * Files as users have them run as written, with no raster parameter: RGB imagery of bytes without
   * a no-data value (strips, LZW, predictor 2) as PNG, and a Float32 COG whose no-data value is in
   * its GDAL_NODATA tag as GeoTIFF. The imagery's black pixels stay black and opaque; only where
   * the source does not reach is a PNG transparent, and a GeoTIFF tile of it carries a mask there.
   */
  @Test
  void imageryWithoutNoDataAndFloatCogsRunAsWritten() throws Exception {
    Path home = Files.createDirectories(dir.resolve("as-written"));
    Path rgb = home.resolve("rgb.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Byte",
        "-scale",
        "500",
        "900",
        "0",
        "255",
        "-b",
        "1",
        "-b",
        "1",
        "-b",
        "1",
        "-a_nodata",
        "none",
        "-co",
        "TILED=NO",
        "-co",
        "COMPRESS=LZW",
        "-co",
        "PREDICTOR=2",
        "-co",
        "PHOTOMETRIC=RGB",
        source.toString(),
        rgb.toString());
    Path float32 = home.resolve("float32.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Float32",
        "-of",
        "COG",
        source.toString(),
        float32.toString());
    Path out = home.resolve("out");
    Path job = home.resolve("job.yaml");
    Files.writeString(
        job,
        "namespace: as-written\nlayers:\n"
            + layer("imagery", rgb, 10, 10, out, "png", "{}")
            + layer("masked", rgb, 10, 10, out, "geotiff", "{}")
            + layer("heights", float32, 10, 10, out, "geotiff", "{}"));
    JsonNode report = run(home, job);
    assertEquals(36, report.get("written").asLong(), report.toString());

    long transparent = 0, blackOpaque = 0;
    for (Path png : files(out.resolve("imagery"), ".png")) {
      BufferedImage image = ImageIO.read(png.toFile());
      for (int y = 0; y < image.getHeight(); y++) {
        for (int x = 0; x < image.getWidth(); x++) {
          int argb = image.getRGB(x, y);
          transparent += (argb >>> 24) == 0 ? 1 : 0;
          blackOpaque += argb == 0xFF000000 ? 1 : 0;
        }
      }
    }
    assertTrue(transparent > 0, "outside the source is transparent");
    assertTrue(blackOpaque > 1000, blackOpaque + " black pixels of the source stay opaque");

    // An edge tile: GDAL reads the mask; the bands are the source's, zeros outside.
    JsonNode masked =
        new ObjectMapper()
            .readTree(
                Gdal.run("gdalinfo", "-json", out.resolve("masked/10/534/358.tif").toString()));
    assertEquals("PER_DATASET", masked.at("/bands/0/mask/flags/0").asText(), masked.toString());
    assertTrue(masked.at("/bands/0/noDataValue").isMissingNode(), masked.toString());

    JsonNode heights =
        new ObjectMapper()
            .readTree(
                Gdal.run("gdalinfo", "-json", out.resolve("heights/10/534/358.tif").toString()));
    assertEquals("Float32", heights.at("/bands/0/type").asText());
    assertEquals(TestRasters.NODATA, heights.at("/bands/0/noDataValue").asDouble());
  }

  private static String gdalPixels(Path tif) throws Exception {
    JsonNode info =
        new ObjectMapper().readTree(Gdal.run("gdalinfo", "-json", "-checksum", tif.toString()));
    return info.at("/bands/0/checksum").asText() + " " + info.get("geoTransform");
  }
}
