package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * How one layer's features are cut: from which CRS (east/north), into which tile matrix set, for
 * which zooms, with which buffer around each tile and which simplification, both in pixels of the
 * zoom being cut. {@code gridDigits}, when not -1, rounds the pieces onto the output grid of that
 * many decimals at the cutter ({@link GridPiece}): only right where the target CRS is the matrix
 * set's, so that the renderer's own rounding would make the same coordinates. {@code
 * minSizePixels}, when positive, drops after simplification a ring whose area is smaller than a
 * square that many pixels on a side (a speck; the area it winds, Planetiler's measure, so a sliver
 * longer but thinner than that goes too): for an output that cannot draw it (a vector tile's grid
 * unit), where keeping every island as a triangle made a low zoom of real coastlines thousands of
 * overlapping triangles to repair. A feature left with nothing at a zoom that way is counted
 * ({@link FeatureCutter.Cut}).
 *
 * <p>{@code woundPieces} (for a layer rounded onto a tile's grid, whose renderer unites every
 * folded piece by winding anyway, {@link io.tilebeam.transforms.repair.GridUnion}) skips making the
 * source valid: each ring is cut as it is, shells anticlockwise and holes clockwise, and a piece
 * carries the rings a tile received, to be read as the area where they wind at least once ({@link
 * GridPiece#wound}). Real coastlines are mostly invalid somewhere (rings touching themselves, parts
 * overlapping); repairing each one whole, in full precision, cost more than cutting it at every
 * zoom.
 */
public record CutSpec(
    CrsRef sourceCrs,
    TileMatrixSet tileMatrixSet,
    int minZoom,
    int maxZoom,
    double bufferPixels,
    double simplifyPixels,
    int gridDigits,
    double minSizePixels,
    boolean woundPieces)
    implements Serializable {

  /** A spec that keeps every ring, however small simplification leaves it. */
  public CutSpec(
      CrsRef sourceCrs,
      TileMatrixSet tileMatrixSet,
      int minZoom,
      int maxZoom,
      double bufferPixels,
      double simplifyPixels,
      int gridDigits) {
    this(
        sourceCrs,
        tileMatrixSet,
        minZoom,
        maxZoom,
        bufferPixels,
        simplifyPixels,
        gridDigits,
        0,
        false);
  }

  /** A spec whose pieces stay in full precision (WKB). */
  public CutSpec(
      CrsRef sourceCrs,
      TileMatrixSet tileMatrixSet,
      int minZoom,
      int maxZoom,
      double bufferPixels,
      double simplifyPixels) {
    this(sourceCrs, tileMatrixSet, minZoom, maxZoom, bufferPixels, simplifyPixels, -1, 0, false);
  }

  /** Checks the zooms, buffer, tolerance and grid. */
  public CutSpec {
    if (minZoom < 0 || maxZoom < minZoom || maxZoom > tileMatrixSet.maxZoom()) {
      throw new IllegalArgumentException("zooms [" + minZoom + ", " + maxZoom + "] are not usable");
    }
    if (!(bufferPixels >= 0) || bufferPixels > 256) {
      throw new IllegalArgumentException("bufferPixels must be in [0, 256], was " + bufferPixels);
    }
    if (gridDigits < -1 || gridDigits > 15) {
      throw new IllegalArgumentException("gridDigits must be in [-1, 15], was " + gridDigits);
    }
    if (!(minSizePixels >= 0) || minSizePixels > 256) {
      throw new IllegalArgumentException("minSizePixels must be in [0, 256], was " + minSizePixels);
    }
    if (!(simplifyPixels >= 0) || simplifyPixels > 256) {
      throw new IllegalArgumentException(
          "simplifyPixels must be in [0, 256], was " + simplifyPixels);
    }
    if (woundPieces && gridDigits < 0) {
      throw new IllegalArgumentException("wound pieces need a grid (gridDigits >= 0)");
    }
  }
}
