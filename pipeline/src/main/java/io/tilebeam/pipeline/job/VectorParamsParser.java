package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The form of a vector layer's {@code params}: {@code bufferPixels}, {@code simplifyPixels} and
 * {@code minSizePixels} (pixels of a 256-pixel tile, in [0, 256]) and {@code precision} (decimal
 * places, in [0, 12]).
 */
final class VectorParamsParser {

  private VectorParamsParser() {}

  /**
   * The parameters the job gives ({@link VectorParams#NONE} when there are none).
   *
   * @throws JobSpecException naming the parameter that cannot be used
   */
  static VectorParams parse(JsonNode given, String path) {
    JsonNode node = JobSpecParser.paramsMapping(given, path, JobSpecParser.PARAMS, "parameter");
    if (node == null) {
      return VectorParams.NONE;
    }
    return new VectorParams(
        pixels(node.get("bufferPixels"), path + ".bufferPixels"),
        pixels(node.get("simplifyPixels"), path + ".simplifyPixels"),
        precision(node.get("precision"), path + ".precision"),
        pixels(node.get("minSizePixels"), path + ".minSizePixels"));
  }

  /** A number of pixels in [0, 256], or null when not given. */
  private static Double pixels(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    if (!v.isNumber() || v.doubleValue() < 0 || v.doubleValue() > 256) {
      throw new JobSpecException(path, v, "must be a number in [0, 256]");
    }
    return v.doubleValue();
  }

  /** A whole number of decimal places in [0, 12], or null when not given. */
  private static Integer precision(JsonNode v, String path) {
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || v.intValue() < 0 || v.intValue() > 12) {
      throw new JobSpecException(path, v, "must be a whole number in [0, 12]");
    }
    return v.intValue();
  }
}
