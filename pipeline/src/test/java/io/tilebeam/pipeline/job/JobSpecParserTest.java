package io.tilebeam.pipeline.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.transforms.raster.Resampling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job parser on text alone: fields read into their types, each layer's {@code params} parsed
 * once into the type of its kind, and every refusal naming its field. Nothing is resolved here (no
 * file is read), so the sources named need not exist.
 */
class JobSpecParserTest {

  /** A layer whose {@code PARAMS} line and source format are filled in by each test. */
  private static String job(String format, String params) {
    return "namespace: parser-test\n"
        + "layers:\n"
        + "  - name: a\n"
        + "    source:\n"
        + "      uri: /data/a."
        + format
        + "\n"
        + "      format: "
        + format
        + "\n"
        + "    extents:\n"
        + "      - bbox: [-10, 40, 10, 60]\n"
        + "    tileMatrixSet: WebMercatorQuad\n"
        + "    zooms: [2, 5]\n"
        + "    targetCrs: EPSG:3857\n"
        + "    output:\n"
        + "      uri: /out\n"
        + "      format: "
        + (format.equals("geotiff") ? "png" : "mvt")
        + "\n"
        + (params == null ? "" : "    params: " + params + "\n");
  }

  private static LayerSpec only(String yaml) {
    JobSpec spec = JobSpecParser.parse(yaml);
    assertEquals(1, spec.layers().size());
    return spec.layers().get(0);
  }

  @Test
  void fieldsAreReadIntoTheirTypes() {
    LayerSpec l = only(job("geojson", null));
    assertEquals("a", l.name());
    assertEquals("/data/a.geojson", l.sourceUri());
    assertEquals("geojson", l.sourceFormat());
    assertNull(l.sourceCrs());
    assertEquals(2, l.minZoom());
    assertEquals(5, l.maxZoom());
    assertArrayEquals(new double[] {-10, 40, 10, 60}, l.extents().get(0).bbox());
    assertEquals("mvt", l.outputFormat());
    assertNull(l.outputTiles());
  }

  @Test
  void aVectorLayerWithoutParamsHasNone() {
    assertEquals(VectorParams.NONE, only(job("geojson", null)).params());
  }

  @Test
  void vectorParamsAreTypedAndOnlyThoseGivenAreSet() {
    LayerParams p = only(job("geojson", "{bufferPixels: 16, precision: 2}")).params();
    assertEquals(new VectorParams(16.0, null, 2), p);
    assertEquals(
        new VectorParams(null, null, null, 0.5),
        only(job("geojson", "{minSizePixels: 0.5}")).params());
  }

  @Test
  void aRasterLayerWithoutParamsHasNone() {
    assertEquals(RasterParams.NONE, only(job("geotiff", null)).params());
  }

  @Test
  void rasterParamsAreTypedWithOneSpellingEach() {
    LayerParams p =
        only(job(
                "geotiff",
                "{resampling: near, tileSize: 512, bands: [3, 1], nodata: -9999,"
                    + " outputNodata: 0, dataType: UInt16}"))
            .params();
    RasterParams r = assertInstanceOf(RasterParams.class, p);
    // GDAL's "near" is tilebeam's "nearest": the same work, one key.
    assertEquals(Resampling.NEAREST, r.resampling());
    assertEquals(512, r.tileSize());
    assertArrayEquals(new int[] {3, 1}, r.bands());
    assertEquals(-9999.0, r.nodata());
    assertEquals(0.0, r.outputNodata());
    assertEquals(SampleType.UINT16, r.dataType());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // vector parameters
        "geojson | {bufferPixels: 300}          | layers[0].params.bufferPixels   | in [0, 256]",
        "geojson | {bufferPixels: wide}         | layers[0].params.bufferPixels   | in [0, 256]",
        "geojson | {simplifyPixels: -1}         | layers[0].params.simplifyPixels | in [0, 256]",
        "geojson | {minSizePixels: 257}         | layers[0].params.minSizePixels  | in [0, 256]",
        "geojson | {precision: 13}              | layers[0].params.precision      | [0, 12]",
        "geojson | {precision: 2.5}             | layers[0].params.precision      | whole number",
        "geojson | {resampling: bilinear}       | layers[0].params.resampling     | unknown parameter",
        "geojson | [1, 2]                       | layers[0].params                | mapping",
        // raster parameters
        "geotiff | {resampling: sinc}           | layers[0].params.resampling     | unknown resampling",
        "geotiff | {tileSize: 8}                | layers[0].params.tileSize       | [16, 4096]",
        "geotiff | {tileSize: 256.5}            | layers[0].params.tileSize       | whole number",
        "geotiff | {bands: [0]}                 | layers[0].params.bands          | from 1",
        "geotiff | {bands: []}                  | layers[0].params.bands          | from 1",
        "geotiff | {nodata: none}               | layers[0].params.nodata         | must be a number",
        "geotiff | {outputNodata: [1]}          | layers[0].params.outputNodata   | must be a number",
        "geotiff | {dataType: int64}            | layers[0].params.dataType       | unknown data type",
        "geotiff | {bufferPixels: 8}            | layers[0].params.bufferPixels   | unknown raster parameter",
      })
  void badParamsAreRefusedNamingTheField(
      String format, String params, String field, String problem) {
    JobSpecException e =
        assertThrows(JobSpecException.class, () -> JobSpecParser.parse(job(format, params)));
    assertEquals(field, e.field());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "'    zooms: [2, 5]'   | '    zooms: [5, 2]'        | layers[0].zooms           | reversed",
        "'    zooms: [2, 5]'   | '    zooms: [2, 5]\n    zoom: 3' | layers[0].zoom   | unknown field",
        "'      format: mvt'   | '      format: shp'        | layers[0].output.format   | 'shp'",
        "'      format: geojson' | '      format: shapefile' | layers[0].source.format | 'shapefile'",
        "'  - name: a'         | '  - name: _failed'        | layers[0].name            | reserved",
        "'  - name: a'         | '  - name: ../a'           | layers[0].name            | must match",
        "'    targetCrs: EPSG:3857\n' | ''                  | layers[0].targetCrs       | missing",
        "'      uri: /data/a.geojson' | '      uri: [/data/a.geojson, /data/b.geojson]' | layers[0].source.uri | only by raster formats",
        "'      format: mvt'   | '      format: mvt\n      tiles: png' | layers[0].output.tiles | names the tiles inside a pmtiles archive",
      })
  void badFieldsAreRefusedNamingTheField(
      String replace, String with, String field, String problem) {
    String yaml = job("geojson", null);
    assertTrue(yaml.contains(replace.replace("\\n", "\n")), "the base job has " + replace);
    JobSpecException e =
        assertThrows(
            JobSpecException.class,
            () ->
                JobSpecParser.parse(
                    yaml.replace(replace.replace("\\n", "\n"), with.replace("\\n", "\n"))));
    assertEquals(field, e.field());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @Test
  void aMosaicListsItsSourcesInOrder() {
    LayerSpec l =
        only(
            job("geotiff", null)
                .replace("      uri: /data/a.geotiff", "      uri: [/data/b.tif, /data/a.tif]"));
    assertEquals(java.util.List.of("/data/b.tif", "/data/a.tif"), l.sourceUris());
    assertEquals("/data/b.tif, /data/a.tif", l.sourceUri());
  }
}
