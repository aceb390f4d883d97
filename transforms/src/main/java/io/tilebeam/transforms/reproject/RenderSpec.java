package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * How one layer's tiles are finished: pieces arrive in the matrix set's CRS, go to the target CRS
 * and are rounded to {@code precisionDigits} decimal places there.
 */
public record RenderSpec(TileMatrixSet tileMatrixSet, CrsRef targetCrs, int precisionDigits)
    implements Serializable {

  /** Checks the precision. */
  public RenderSpec {
    if (precisionDigits < 0 || precisionDigits > 12) {
      throw new IllegalArgumentException("precision must be in [0, 12], was " + precisionDigits);
    }
  }

  /**
   * The grid the cutter may round pieces onto ({@link io.tilebeam.transforms.cut.CutSpec}): this
   * spec's digits where going from the matrix set's CRS to the target is the identity (rounding
   * before or after it is then the same), else -1.
   */
  public int cutterGridDigits() {
    return CrsFacts.identityOperation(tileMatrixSet.crs(), targetCrs) ? precisionDigits : -1;
  }
}
