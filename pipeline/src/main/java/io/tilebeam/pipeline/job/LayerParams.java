package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.digest.CanonicalJson;

/**
 * A layer's parameters that change the bytes, with the defaults filled in: read once, and kept both
 * as values for the stages and as the canonical JSON that enters the layer's work keys.
 *
 * @param bufferPixels the buffer around each tile, in pixels of a 256-pixel tile
 * @param simplifyPixels the simplification tolerance, in pixels (0 keeps every vertex)
 * @param precision decimal places of output coordinates
 * @param json the parameters as canonical JSON, defaults included: what the keys are made from
 */
public record LayerParams(double bufferPixels, double simplifyPixels, int precision, String json) {

  /** Decimal places of coordinates in degrees when the job sets none: 1e-8° is about 1.1 mm. */
  static final int DEFAULT_PRECISION_DEGREES = 8;

  /** Decimal places of coordinates in metres (or feet) when the job sets none: a millimetre. */
  static final int DEFAULT_PRECISION_LINEAR = 3;

  /** The buffer around each tile, in pixels of a 256-pixel tile, when the job sets none. */
  static final double DEFAULT_BUFFER_PIXELS = 8;

  /**
   * The parameters a job gives ({@code params}, canonical JSON checked by the parser), with the
   * defaults for a layer written in {@code target} as {@code format} (null for rows in a PostGIS
   * table) filled in.
   */
  static LayerParams of(String params, CrsRef target, TileFormat format) {
    ObjectNode p = (ObjectNode) CanonicalJson.parse(params);
    if (!p.has("bufferPixels")) {
      p.put("bufferPixels", DEFAULT_BUFFER_PIXELS);
    }
    if (!p.has("simplifyPixels")) {
      p.put("simplifyPixels", format == null ? 0 : format.defaultSimplifyPixels());
    }
    if (!p.has("precision")) {
      p.put(
          "precision",
          CrsFacts.angular(target) ? DEFAULT_PRECISION_DEGREES : DEFAULT_PRECISION_LINEAR);
    }
    return new LayerParams(
        p.get("bufferPixels").doubleValue(),
        p.get("simplifyPixels").doubleValue(),
        p.get("precision").intValue(),
        CanonicalJson.write(p));
  }
}
