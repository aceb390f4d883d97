package io.tilebeam.pipeline.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.key.KeyHasher;
import io.tilebeam.transforms.raster.Resampling;
import io.tilebeam.transforms.raster.TileSettings;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The planner without a pipeline: each layer resolved into a {@link VectorLayer} or a {@link
 * RasterLayer}, defaults filled in, keys pinned, and what a layer cannot be refused naming the
 * field, with nothing written.
 */
class JobPlanTest {

  private static final Path SAMPLES = Path.of("../src/samples").toAbsolutePath();

  @TempDir Path dir;

  /** The sample job, its sources by absolute path and its output in the test's directory. */
  private String sample() throws IOException {
    return Files.readString(SAMPLES.resolve("sample-job.yaml"))
        .replace("src/samples/", SAMPLES + "/")
        .replace("uri: out/", "uri: " + dir.resolve("out"));
  }

  private JobPlan plan(String yaml) {
    return JobPlan.resolve(JobSpecParser.parse(yaml));
  }

  private LayerPlan layer(JobPlan plan, String name) {
    return plan.layers().stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
  }

  private String key(LayerPlan layer, int z, int x, int y) {
    return KeyHasher.of(layer.template()).key(TileId.of(z, x, y)).value();
  }

  @Test
  void theSampleIsThreeVectorLayersAndOneRasterLayer() throws IOException {
    JobPlan plan = plan(sample());
    assertEquals(
        List.of("islands", "pacific", "vector", "terrain"),
        plan.layers().stream().map(LayerPlan::name).toList());
    assertInstanceOf(VectorLayer.class, layer(plan, "islands"));
    assertInstanceOf(VectorLayer.class, layer(plan, "pacific"));
    assertInstanceOf(VectorLayer.class, layer(plan, "vector"));
    assertInstanceOf(RasterLayer.class, layer(plan, "terrain"));
    assertEquals(195, plan.tileCount());
    assertFalse(Files.exists(dir.resolve("out")), "planning wrote the output directory");
  }

  /**
   * A vector layer of the sample's islands, from CRS84 to Web Mercator, written as {@code format}.
   */
  private String islands(String format) {
    return islands(format, "EPSG:3857");
  }

  /** The same layer written as {@code format} in {@code targetCrs}. */
  private String islands(String format, String targetCrs) {
    return String.join(
        "\n",
        "namespace: warm-up",
        "layers:",
        "  - name: islands",
        "    source: {uri: " + SAMPLES.resolve("islands.geojson") + ", format: geojson}",
        "    extents: [{bbox: [-10, 40, 10, 60]}]",
        "    tileMatrixSet: WebMercatorQuad",
        "    zooms: [0, 2]",
        "    targetCrs: " + targetCrs,
        "    output: {uri: " + dir.resolve("out-" + format) + ", format: " + format + "}",
        "");
  }

  /**
   * The EPSG database is opened ahead of the workers only where they will need it: a vector layer
   * between CRS84 and Web Mercator needs it only until its operations were found built in.
   */
  @Test
  void theEpsgDatabaseIsWarmedUpOnlyWhereWorkersNeedIt() throws IOException {
    CrsRef lonLat = new CrsRef(CrsResolver.CRS84, "CRS:84");
    CrsRef webMercator = new CrsRef("EPSG:3857", "EPSG:3857");
    // What the workers of such a layer do first: the operations, checked against the database.
    CrsTransforms.operation(lonLat, webMercator);
    CrsTransforms.operation(webMercator, lonLat);
    CrsTransforms.operation(webMercator, webMercator);
    assertFalse(plan(islands("mvt")).needsEpsgDatabase());
    assertFalse(plan(islands("flatgeobuf")).needsEpsgDatabase());
    // UTM 31N's operations are built in too; its PROJJSON, which no test writes, is not yet.
    CrsRef utm = new CrsRef("EPSG:32631", "EPSG:32631");
    CrsTransforms.operation(webMercator, utm);
    assertFalse(plan(islands("flatgeobuf", "EPSG:32631")).needsEpsgDatabase());
    assertTrue(plan(islands("geoparquet", "EPSG:32631")).needsEpsgDatabase(), "its PROJJSON");
    assertTrue(plan(sample()).needsEpsgDatabase(), "a raster layer");
  }

  /**
   * The keys `tilebeam plan --tiles-out` printed for the sample before layers had kinds: a key
   * changes only with what decides a tile's bytes.
   */
  @ParameterizedTest
  @CsvSource({
    "islands, 0, 0, 0, obdt4cj4kct6sfwknqvfzcrqvhq2gqonljjac6tnhps6ckcuusra",
    "pacific, 2, 0, 0, kyb7aigpdmypynrqt4gdkuvnnt2nbojbv4maf4nk7tf225t3qllq",
    "vector, 1, 0, 0, 3kcdd4gjpgmtspow7xdvgtz6czqi7ek2jpk6j7r6ykpfivxfaera",
    "terrain, 8, 133, 89, rgbmb432oirzdubnlyuqc6ba7276f2uxqyw63lthpbl76pirklwq",
    "terrain, 8, 134, 89, nz4sj5pfvzit4ju2r7xvbw5mli6tzxrt3tw3wek5q5okakfflaqa",
  })
  void sampleKeysArePinned(String name, int z, int x, int y, String expected) throws IOException {
    assertEquals(expected, key(layer(plan(sample()), name), z, x, y));
  }

  @Test
  void vectorDefaultsDependOnTheTargetAndTheFormat() throws IOException {
    JobPlan plan = plan(sample());
    // FlatGeobuf in metres: a millimetre, every vertex kept; the job's buffer of 8 pixels.
    VectorLayer islands = (VectorLayer) layer(plan, "islands");
    assertEquals(
        "{\"bufferPixels\":8,\"precision\":3,\"simplifyPixels\":0}", islands.template().params());
    assertEquals(3, islands.render().precisionDigits());
    // GeoJSON in degrees: 1e-8°.
    VectorLayer pacific = (VectorLayer) layer(plan, "pacific");
    assertEquals(
        "{\"bufferPixels\":8,\"precision\":8,\"simplifyPixels\":0}", pacific.template().params());
    // MVT simplifies by default, and drops what its grid cannot draw.
    VectorLayer vector = (VectorLayer) layer(plan, "vector");
    assertTrue(vector.read().cut().simplifyPixels() > 0, vector.template().params());
    // ... drops by default what its grid cannot draw (rings under the tolerance), and finishes
    // pieces on the tile's own 4096-unit grid.
    assertEquals(1.0 / 16, vector.read().cut().minSizePixels());
    assertTrue(vector.template().params().contains("\"minSizePixels\":0.0625"));
    assertEquals(4096, vector.render().gridExtent());
    assertEquals(0, islands.read().cut().minSizePixels());
    assertEquals(0, islands.render().gridExtent());
    assertFalse(islands.template().params().contains("minSizePixels"));
    assertEquals(16.0, vector.read().cut().bufferPixels());
  }

  @Test
  void rasterDefaultsComeFromTheSource() throws IOException {
    RasterLayer terrain = (RasterLayer) layer(plan(sample()), "terrain");
    TileSettings s = terrain.raster().settings();
    assertEquals(256, s.size());
    assertArrayEquals(new int[] {0}, s.bands());
    assertEquals(Resampling.BILINEAR, s.resampling());
    assertEquals(terrain.source().type(), s.type());
    assertEquals(terrain.source().nodata(), s.nodataIn());
    assertEquals(s.keyJson(), terrain.template().params());
    assertEquals(RasterFormat.GEOTIFF, terrain.publish().format());
    assertEquals(3857, terrain.raster().epsg());
  }

  @Test
  void rasterParamsEnterTheKeyWithTheirDefaults() throws IOException {
    String yaml =
        sample()
            .replace("      resampling: bilinear", "      resampling: near\n      tileSize: 512");
    RasterLayer terrain = (RasterLayer) layer(plan(yaml), "terrain");
    assertEquals(512, terrain.raster().settings().size());
    String params = terrain.template().params();
    assertTrue(params.contains("\"resampling\":\"nearest\""), params);
    assertTrue(params.contains("\"tileSize\":512"), params);
    assertTrue(params.contains("\"bands\":[1]"), params);
    // Another tile size is other work.
    assertFalse(
        key(terrain, 8, 133, 89).equals("rgbmb432oirzdubnlyuqc6ba7276f2uxqyw63lthpbl76pirklwq"));
  }

  @Test
  void outputNodataDefaultsToTheInputsWhenTheOutputTypeHoldsIt() throws IOException {
    String yaml = sample().replace("      resampling: bilinear", "      dataType: float32");
    RasterLayer terrain = (RasterLayer) layer(plan(yaml), "terrain");
    TileSettings s = terrain.raster().settings();
    assertEquals(SampleType.FLOAT32, s.type());
    assertEquals(-9999.0, terrain.source().nodata());
    assertEquals(-9999.0, s.nodataOut());
    // A byte cannot hold -9999: its no data is 0.
    String bytes = sample().replace("      resampling: bilinear", "      dataType: uint8");
    assertEquals(
        0.0, ((RasterLayer) layer(plan(bytes), "terrain")).raster().settings().nodataOut());
  }

  @Test
  void archivesHoldTheirKindsDefaultTiles() throws IOException {
    String yaml =
        sample()
            .replace("      format: mvt", "      format: pmtiles")
            .replace("      format: geotiff\n    params:", "      format: pmtiles\n    params:")
            // PNG holds 8 or 16 unsigned bits, not the source's int16.
            .replace(
                "      resampling: bilinear", "      resampling: bilinear\n      dataType: uint16");
    JobPlan plan = plan(yaml);
    assertEquals("pmtiles/mvt", layer(plan, "vector").template().format());
    assertEquals("pmtiles/png", layer(plan, "terrain").template().format());
    assertEquals(RasterFormat.PNG, layer(plan, "terrain").archive().tiles());
    assertNull(layer(plan, "islands").archive());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // a raster encoding for features, and features' for pixels
        "'      format: flatgeobuf' | '      format: png' | layers[0].output.format | png output needs a raster source",
        "'      format: geotiff\\n    params:' | '      format: mvt\\n    params:' | layers[3].output.format | a raster source needs a raster output",
        // a band the source does not have
        "'      resampling: bilinear' | '      bands: [1, 2]' | layers[3].params.bands | the source has 1",
        // an output no-data value its type cannot hold
        "'      resampling: bilinear' | '      dataType: uint8\n      outputNodata: 300' | layers[3].params.outputNodata | uint8",
        // raster tiles are in their matrix set's CRS
        "'    zooms: [8, 10]\n    targetCrs: EPSG:3857' | '    zooms: [8, 10]\n    targetCrs: EPSG:4326' | layers[3].targetCrs | raster tiles take their tile matrix set's grid",
        // vector tiles are Web Mercator tiles
        "'    zooms: [0, 2]\n    targetCrs: EPSG:3857' | '    zooms: [0, 2]\n    targetCrs: EPSG:4326' | layers[2].targetCrs | mvt output needs EPSG:3857",
        // a zoom the matrix set does not have
        "'    zooms: [0, 3]' | '    zooms: [0, 40]' | layers[0].zooms | zooms 0 to",
        // a source that is not there
        "'      uri: SAMPLES/islands.geojson\n      format: geojson\n      crs: EPSG:4326' | '      uri: SAMPLES/none.geojson\n      format: geojson\n      crs: EPSG:4326' | layers[0].source.uri | none.geojson",
      })
  void whatALayerCannotBeIsRefusedNamingTheField(
      String replace, String with, String field, String problem) throws IOException {
    String yaml = sample();
    String from = replace.replace("\\n", "\n").replace("SAMPLES", SAMPLES.toString());
    assertTrue(yaml.contains(from), "the sample has " + from);
    String bad =
        yaml.replace(from, with.replace("\\n", "\n").replace("SAMPLES", SAMPLES.toString()));
    JobSpecException e = assertThrows(JobSpecException.class, () -> plan(bad));
    assertEquals(field, e.field(), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
    assertFalse(Files.exists(dir.resolve("out")), "a refused job wrote its output directory");
  }
}
