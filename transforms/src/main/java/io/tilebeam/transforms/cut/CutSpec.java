package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * How one layer's features are cut: from which CRS (east/north), into which tile matrix set, for
 * which zooms, with which buffer around each tile and which simplification, both in pixels of the
 * zoom being cut.
 */
public record CutSpec(
    CrsRef sourceCrs,
    TileMatrixSet tileMatrixSet,
    int minZoom,
    int maxZoom,
    double bufferPixels,
    double simplifyPixels)
    implements Serializable {

  /** Checks the zooms, buffer and tolerance. */
  public CutSpec {
    if (minZoom < 0 || maxZoom < minZoom || maxZoom > tileMatrixSet.maxZoom()) {
      throw new IllegalArgumentException("zooms [" + minZoom + ", " + maxZoom + "] are not usable");
    }
    if (!(bufferPixels >= 0) || bufferPixels > 256) {
      throw new IllegalArgumentException("bufferPixels must be in [0, 256], was " + bufferPixels);
    }
    if (!(simplifyPixels >= 0) || simplifyPixels > 256) {
      throw new IllegalArgumentException(
          "simplifyPixels must be in [0, 256], was " + simplifyPixels);
    }
  }
}
