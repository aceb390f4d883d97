package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.raster.Resampling;
import io.tilebeam.io.raster.SampleType;
import io.tilebeam.transforms.digest.CanonicalJson;
import java.util.Arrays;
import java.util.Locale;

/**
 * The form of a raster layer's {@code params}: {@code resampling} (GDAL's names), {@code tileSize}
 * (pixels a side), {@code bands} (1-based), {@code nodata} (overrides the source's), {@code
 * outputNodata} and {@code dataType}. What they must be against the source (a band that exists, a
 * value the type holds) is checked at planning by {@link RasterParams}.
 */
final class RasterParamsParser {

  /** The smallest and largest tile side in pixels. */
  static final int MIN_TILE_SIZE = 16;

  static final int MAX_TILE_SIZE = 4096;

  private RasterParamsParser() {}

  /**
   * The parameters as canonical JSON ({@code {}} when there are none).
   *
   * @throws JobSpecException naming the parameter that cannot be used
   */
  static String check(JsonNode given, String path) {
    JsonNode node =
        JobSpecParser.paramsMapping(given, path, JobSpecParser.RASTER_PARAMS, "raster parameter");
    if (node == null) {
      return "{}";
    }
    ObjectNode out = ((ObjectNode) node).deepCopy();
    JsonNode resampling = node.get("resampling");
    if (resampling != null) {
      if (!resampling.isTextual() || Resampling.named(resampling.asText()).isEmpty()) {
        throw new JobSpecException(
            path + ".resampling",
            resampling,
            "unknown resampling (known: " + Resampling.names() + ", and GDAL's near)");
      }
      // One spelling in the key: "near" and "nearest" are the same work.
      out.put("resampling", Resampling.named(resampling.asText()).orElseThrow().spelling());
    }
    JsonNode size = node.get("tileSize");
    if (size != null
        && (!size.isIntegralNumber()
            || size.intValue() < MIN_TILE_SIZE
            || size.intValue() > MAX_TILE_SIZE)) {
      throw new JobSpecException(
          path + ".tileSize",
          size,
          "must be a whole number of pixels in [" + MIN_TILE_SIZE + ", " + MAX_TILE_SIZE + "]");
    }
    JsonNode bands = node.get("bands");
    if (bands != null) {
      boolean ok = bands.isArray() && bands.size() > 0;
      for (JsonNode b : bands) {
        ok &= b.isIntegralNumber() && b.intValue() >= 1;
      }
      if (!ok) {
        throw new JobSpecException(
            path + ".bands", bands, "must be a list of band numbers, from 1");
      }
    }
    for (String value : new String[] {"nodata", "outputNodata"}) {
      JsonNode v = node.get(value);
      if (v != null && !v.isNumber()) {
        throw new JobSpecException(path + "." + value, v, "must be a number");
      }
    }
    JsonNode type = node.get("dataType");
    if (type != null) {
      boolean known =
          type.isTextual()
              && Arrays.stream(SampleType.values())
                  .anyMatch(t -> t.spelling().equals(type.asText().toLowerCase(Locale.ROOT)));
      if (!known) {
        throw new JobSpecException(
            path + ".dataType",
            type,
            "unknown data type (known: "
                + Arrays.stream(SampleType.values()).map(SampleType::spelling).toList()
                + ")");
      }
      out.put("dataType", type.asText().toLowerCase(Locale.ROOT));
    }
    return CanonicalJson.write(out);
  }
}
