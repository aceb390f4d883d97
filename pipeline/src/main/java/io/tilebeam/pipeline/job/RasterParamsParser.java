package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.transforms.raster.Resampling;
import java.util.Arrays;
import java.util.Locale;

/**
 * The form of a raster layer's {@code params}: {@code resampling} (GDAL's names), {@code tileSize}
 * (pixels a side), {@code bands} (1-based), {@code nodata} (overrides the source's), {@code
 * outputNodata} and {@code dataType}. What they must be against the source (a band that exists, a
 * value the type holds) is checked at planning by {@link RasterParams#settings}.
 */
final class RasterParamsParser {

  /** The smallest and largest tile side in pixels. */
  static final int MIN_TILE_SIZE = 16;

  static final int MAX_TILE_SIZE = 4096;

  private RasterParamsParser() {}

  /**
   * The parameters the job gives ({@link RasterParams#NONE} when there are none).
   *
   * @throws JobSpecException naming the parameter that cannot be used
   */
  static RasterParams parse(JsonNode given, String path) {
    JsonNode node =
        JobSpecParser.paramsMapping(given, path, JobSpecParser.RASTER_PARAMS, "raster parameter");
    if (node == null) {
      return RasterParams.NONE;
    }
    return new RasterParams(
        resampling(node.get("resampling"), path + ".resampling"),
        tileSize(node.get("tileSize"), path + ".tileSize"),
        bands(node.get("bands"), path + ".bands"),
        number(node.get("nodata"), path + ".nodata"),
        number(node.get("outputNodata"), path + ".outputNodata"),
        dataType(node.get("dataType"), path + ".dataType"));
  }

  /** GDAL's names, "near" and "nearest" alike. */
  private static Resampling resampling(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    if (!v.isTextual() || Resampling.named(v.asText()).isEmpty()) {
      throw new JobSpecException(
          path, v, "unknown resampling (known: " + Resampling.names() + ", and GDAL's near)");
    }
    return Resampling.named(v.asText()).orElseThrow();
  }

  private static Integer tileSize(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || v.intValue() < MIN_TILE_SIZE || v.intValue() > MAX_TILE_SIZE) {
      throw new JobSpecException(
          path,
          v,
          "must be a whole number of pixels in [" + MIN_TILE_SIZE + ", " + MAX_TILE_SIZE + "]");
    }
    return v.intValue();
  }

  /** Band numbers from 1, at least one. */
  private static int[] bands(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    boolean ok = v.isArray() && v.size() > 0;
    for (JsonNode b : v) {
      ok &= b.isIntegralNumber() && b.intValue() >= 1;
    }
    if (!ok) {
      throw new JobSpecException(path, v, "must be a list of band numbers, from 1");
    }
    int[] out = new int[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.get(i).intValue();
    }
    return out;
  }

  private static Double number(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    if (!v.isNumber()) {
      throw new JobSpecException(path, v, "must be a number");
    }
    return v.doubleValue();
  }

  private static SampleType dataType(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    String spelled = v.isTextual() ? v.asText().toLowerCase(Locale.ROOT) : null;
    return Arrays.stream(SampleType.values())
        .filter(t -> t.spelling().equals(spelled))
        .findFirst()
        .orElseThrow(
            () ->
                new JobSpecException(
                    path,
                    v,
                    "unknown data type (known: "
                        + Arrays.stream(SampleType.values()).map(SampleType::spelling).toList()
                        + ")"));
  }
}
