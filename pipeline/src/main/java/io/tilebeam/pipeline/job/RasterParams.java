package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.raster.Resampling;
import io.tilebeam.io.raster.SampleType;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.transforms.digest.CanonicalJson;
import java.util.Locale;

/**
 * A raster layer's parameters with the defaults filled in from its source: read once at planning,
 * kept as values for RenderRasters and as the canonical JSON that enters the layer's work keys, so
 * that changing any of them (the resampling, a no-data value, the bands, the type, the tile size)
 * re-keys every tile of the layer.
 *
 * <p>Defaults: {@code nearest}; 256 pixels; every band; the source's no-data value and sample type;
 * as output no-data the input's when the output type holds it, else 0 for unsigned types, -32768
 * for int16 and NaN for float32. A source that declares no no-data value (most imagery) gets none
 * out either when its tiles are integers: which pixels it reaches is the tiles' coverage
 * (transparency in a PNG, a mask in a GeoTIFF), and its values are kept as they are; float tiles
 * get NaN, which no sample with data can be.
 *
 * @param resampling how pixels are computed
 * @param tileSize pixels a tile side
 * @param bands the source bands, 0-based
 * @param nodataIn source samples that count as no data, or null
 * @param type the output sample type
 * @param nodataOut the output no-data value, or null for none (coverage alone)
 * @param json all of them as canonical JSON
 */
record RasterParams(
    Resampling resampling,
    int tileSize,
    int[] bands,
    Double nodataIn,
    SampleType type,
    Double nodataOut,
    String json) {

  /** The tile side in pixels when the job sets none: the matrix sets' usual 256. */
  static final int DEFAULT_TILE_SIZE = 256;

  /**
   * The job's parameters ({@code params}, checked in form by {@link RasterParamsParser}) against
   * {@code source}.
   *
   * @throws JobSpecException naming the parameter the source cannot meet
   */
  static RasterParams of(String params, RasterSource source, String path) {
    ObjectNode p = (ObjectNode) CanonicalJson.parse(params);
    Resampling resampling =
        p.has("resampling")
            ? Resampling.named(p.get("resampling").asText()).orElseThrow()
            : Resampling.NEAREST;
    int size = p.has("tileSize") ? p.get("tileSize").intValue() : DEFAULT_TILE_SIZE;
    int[] bands;
    if (p.has("bands")) {
      bands = new int[p.get("bands").size()];
      for (int i = 0; i < bands.length; i++) {
        int band = p.get("bands").get(i).intValue();
        if (band > source.bands()) {
          throw new JobSpecException(
              path + ".params.bands",
              p.get("bands"),
              "band " + band + " does not exist: the source has " + source.bands());
        }
        bands[i] = band - 1;
      }
    } else {
      bands = new int[source.bands()];
      for (int i = 0; i < bands.length; i++) {
        bands[i] = i;
      }
    }
    Double nodataIn =
        p.has("nodata") ? Double.valueOf(p.get("nodata").doubleValue()) : source.nodata();
    SampleType type =
        p.has("dataType")
            ? SampleType.valueOf(p.get("dataType").asText().toUpperCase(Locale.ROOT))
            : source.type();
    Double nodataOut;
    if (p.has("outputNodata")) {
      nodataOut = p.get("outputNodata").doubleValue();
      if (!type.holds(nodataOut)) {
        throw new JobSpecException(
            path + ".params.outputNodata",
            p.get("outputNodata"),
            "is not a value " + type.spelling() + " samples hold");
      }
    } else if (nodataIn != null && type.holds(nodataIn)) {
      nodataOut = nodataIn;
    } else if (nodataIn == null && type.integral()) {
      nodataOut = null;
    } else {
      nodataOut =
          switch (type) {
            case INT16 -> (double) Short.MIN_VALUE;
            case FLOAT32 -> Double.NaN;
            default -> 0.0;
          };
    }
    return new RasterParams(
        resampling,
        size,
        bands,
        nodataIn,
        type,
        nodataOut,
        json(resampling, size, bands, nodataIn, type, nodataOut));
  }

  /** Every parameter, defaults included, as the key holds them; NaN as the string {@code nan}. */
  private static String json(
      Resampling resampling,
      int size,
      int[] bands,
      Double nodataIn,
      SampleType type,
      Double nodataOut) {
    ObjectNode o = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    o.put("resampling", resampling.spelling());
    o.put("tileSize", size);
    ArrayNode b = o.putArray("bands");
    for (int band : bands) {
      b.add(band + 1);
    }
    if (nodataIn != null) {
      number(o, "nodata", nodataIn);
    }
    o.put("dataType", type.spelling());
    if (nodataOut == null) {
      o.put("outputNodata", "none");
    } else {
      number(o, "outputNodata", nodataOut);
    }
    return CanonicalJson.write(o);
  }

  private static void number(ObjectNode o, String name, double value) {
    if (Double.isNaN(value)) {
      o.put(name, "nan");
    } else {
      o.put(name, value);
    }
  }

  /** Equal when their key JSON is: a record would compare the band array by identity. */
  @Override
  public boolean equals(Object o) {
    return o instanceof RasterParams r && json.equals(r.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "RasterParams" + json;
  }
}
