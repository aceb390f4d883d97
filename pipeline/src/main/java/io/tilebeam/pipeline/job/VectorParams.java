package io.tilebeam.pipeline.job;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.format.VectorFormat;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.digest.CanonicalJson;

/**
 * A vector layer's parameters, all of which change the bytes. As parsed, a field the job does not
 * give is null; {@link #withDefaults} fills them in, and {@link #keyJson} is then what enters the
 * layer's work keys.
 *
 * @param bufferPixels the buffer around each tile, in pixels of a 256-pixel tile
 * @param simplifyPixels the simplification tolerance, in pixels (0 keeps every vertex)
 * @param precision decimal places of output coordinates
 * @param minSizePixels the size, in pixels, of the square below whose area a polygon's ring is
 *     dropped (0 keeps every ring)
 */
public record VectorParams(
    Double bufferPixels, Double simplifyPixels, Integer precision, Double minSizePixels)
    implements LayerParams {

  /** A job that gives no parameters. */
  public static final VectorParams NONE = new VectorParams(null, null, null, null);

  /** Parameters without a minimum size (the format's default). */
  public VectorParams(Double bufferPixels, Double simplifyPixels, Integer precision) {
    this(bufferPixels, simplifyPixels, precision, null);
  }

  /** Decimal places of coordinates in degrees when the job sets none: 1e-8° is about 1.1 mm. */
  static final int DEFAULT_PRECISION_DEGREES = 8;

  /** Decimal places of coordinates in metres (or feet) when the job sets none: a millimetre. */
  static final int DEFAULT_PRECISION_LINEAR = 3;

  /** The buffer around each tile, in pixels of a 256-pixel tile, when the job sets none. */
  static final double DEFAULT_BUFFER_PIXELS = 8;

  /**
   * Every parameter set: the job's, else the default for a layer written in {@code target} as
   * {@code format} (null for rows in a PostGIS table).
   */
  VectorParams withDefaults(CrsRef target, VectorFormat format) {
    double simplify =
        simplifyPixels != null
            ? simplifyPixels
            : format == null ? 0 : format.defaultSimplifyPixels();
    return new VectorParams(
        bufferPixels != null ? bufferPixels : DEFAULT_BUFFER_PIXELS,
        simplify,
        precision != null
            ? precision
            : CrsFacts.angular(target) ? DEFAULT_PRECISION_DEGREES : DEFAULT_PRECISION_LINEAR,
        // A format that cannot draw a ring smaller than the simplification's tolerance (a vector
        // tile's grid unit, by default) drops those; every other keeps every ring.
        minSizePixels != null
            ? minSizePixels
            : format != null && format.dropsSpecks() ? simplify : 0);
  }

  /** The parameters as canonical JSON, those not set left out: with defaults, the keys' part. */
  String keyJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (bufferPixels != null) {
      o.put("bufferPixels", bufferPixels);
    }
    if (precision != null) {
      o.put("precision", precision);
    }
    if (simplifyPixels != null) {
      o.put("simplifyPixels", simplifyPixels);
    }
    // Left out when 0, so that the keys of layers that keep every ring stay as they were.
    if (minSizePixels != null && minSizePixels != 0) {
      o.put("minSizePixels", minSizePixels);
    }
    return CanonicalJson.write(o);
  }
}
