package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * How one layer's tiles are rendered: the matrix set, the source and target CRSs, the buffer around
 * each tile in pixels and the number of decimal places coordinates are rounded to in the target
 * CRS.
 */
public record RenderSpec(
    TileMatrixSet tileMatrixSet,
    CrsRef sourceCrs,
    CrsRef targetCrs,
    double bufferPixels,
    int precisionDigits)
    implements Serializable {

  /** Checks the buffer and precision. */
  public RenderSpec {
    if (!(bufferPixels >= 0) || bufferPixels > 256) {
      throw new IllegalArgumentException("bufferPixels must be in [0, 256], was " + bufferPixels);
    }
    if (precisionDigits < 0 || precisionDigits > 12) {
      throw new IllegalArgumentException("precision must be in [0, 12], was " + precisionDigits);
    }
  }
}
