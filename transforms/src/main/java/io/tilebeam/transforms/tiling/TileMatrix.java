package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.Bounds;
import java.io.Serializable;

/**
 * One level of a tile matrix set (OGC 17-083r4 §6.1): the west and north edges of the matrix in the
 * set's CRS (east/north axis order), the size of one tile in CRS units, and the matrix size.
 *
 * <p>Rows count from the top unless {@code rowsFromBottom} (a {@code bottomLeft} corner of origin),
 * where row 0 is the southernmost.
 */
public record TileMatrix(
    int zoom,
    double originX,
    double originY,
    double tileSpanX,
    double tileSpanY,
    long matrixWidth,
    long matrixHeight,
    int tileWidthPixels,
    int tileHeightPixels,
    boolean rowsFromBottom)
    implements Serializable {

  /** Checks that the spans and sizes are positive. */
  public TileMatrix {
    if (!(tileSpanX > 0) || !(tileSpanY > 0) || matrixWidth < 1 || matrixHeight < 1) {
      throw new IllegalArgumentException("tile matrix " + zoom + " has a non-positive size");
    }
  }

  /** The bounds of one tile of this matrix, in the set's CRS, east/north axis order. */
  public Bounds tileBounds(long x, long y) {
    double minX = originX + x * tileSpanX;
    double maxY = originY - rowFromTop(y) * tileSpanY;
    return new Bounds(minX, maxY - tileSpanY, minX + tileSpanX, maxY);
  }

  /**
   * The row counted from the top: {@code y} itself, or its mirror when rows count from the bottom.
   */
  public long rowFromTop(long y) {
    return rowsFromBottom ? matrixHeight - 1 - y : y;
  }

  /** The bounds of the whole matrix, in the set's CRS, east/north axis order. */
  public Bounds matrixBounds() {
    return new Bounds(
        originX, originY - matrixHeight * tileSpanY, originX + matrixWidth * tileSpanX, originY);
  }
}
