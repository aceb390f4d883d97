package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * How one layer's tiles are finished: pieces arrive in the matrix set's CRS, go to the target CRS
 * and are rounded to {@code precisionDigits} decimal places there, or, when {@code gridExtent} is
 * positive, onto the tile's own grid of that many units a side ({@link TileGrid}: a vector tile's
 * grid, where the encoder can then write each coordinate as it is).
 */
public record RenderSpec(
    TileMatrixSet tileMatrixSet, CrsRef targetCrs, int precisionDigits, int gridExtent)
    implements Serializable {

  /** A spec that rounds to decimal places. */
  public RenderSpec(TileMatrixSet tileMatrixSet, CrsRef targetCrs, int precisionDigits) {
    this(tileMatrixSet, targetCrs, precisionDigits, 0);
  }

  /** Checks the precision and the grid. */
  public RenderSpec {
    if (precisionDigits < 0 || precisionDigits > 12) {
      throw new IllegalArgumentException("precision must be in [0, 12], was " + precisionDigits);
    }
    if (gridExtent < 0 || gridExtent > 1 << 16) {
      throw new IllegalArgumentException("gridExtent must be in [0, 65536], was " + gridExtent);
    }
    if (gridExtent > 0 && !CrsFacts.identityOperation(tileMatrixSet.crs(), targetCrs)) {
      throw new IllegalArgumentException("a tile grid needs the matrix set's own CRS as target");
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
