package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.Bounds;
import java.util.Optional;

/**
 * The tiles of one matrix that a box covers, in the matrix set's CRS.
 *
 * <p>A box with an area covers the tiles whose interior meets its interior: a tile that the box
 * only touches on an edge is not covered, so a tile's own bounds cover exactly that tile. A
 * degenerate box (a point, or a line along an axis) covers every tile that contains it, edges
 * included.
 */
public final class TileCover {

  /**
   * Coordinates closer than this fraction of a tile to a tile edge are taken to lie on it. It
   * absorbs the rounding of a CRS transform (about 1e-9 m in Web Mercator) without moving a real
   * coordinate: at zoom 30 a Web Mercator tile is 3.7 cm wide, so the snap is under 4 nm.
   */
  static final double EDGE_SNAP = 1e-7;

  private TileCover() {}

  /** The range of tiles of {@code matrix} that {@code box} covers, if any. */
  public static Optional<TileRange> cover(Bounds box, TileMatrix matrix) {
    Bounds clipped = box.intersection(matrix.matrixBounds());
    if (clipped == null) {
      return Optional.empty();
    }
    double x0 = snap((clipped.minX() - matrix.originX()) / matrix.tileSpanX());
    double x1 = snap((clipped.maxX() - matrix.originX()) / matrix.tileSpanX());
    // Rows from the top edge; a matrix whose rows count from the bottom mirrors them below.
    double y0 = snap((matrix.originY() - clipped.maxY()) / matrix.tileSpanY());
    double y1 = snap((matrix.originY() - clipped.minY()) / matrix.tileSpanY());
    long[] cols = span(x0, x1, matrix.matrixWidth(), box.width() == 0);
    long[] rows = span(y0, y1, matrix.matrixHeight(), box.height() == 0);
    if (cols == null || rows == null) {
      return Optional.empty();
    }
    long firstRow = matrix.rowFromTop(rows[matrix.rowsFromBottom() ? 1 : 0]);
    long lastRow = matrix.rowFromTop(rows[matrix.rowsFromBottom() ? 0 : 1]);
    return Optional.of(new TileRange(matrix.zoom(), cols[0], firstRow, cols[1], lastRow));
  }

  /**
   * The inclusive index range for the interval {@code [lo, hi]} in tile units. An interval with a
   * length covers the cells its interior meets; a degenerate one covers the cells containing it.
   */
  private static long[] span(double lo, double hi, long size, boolean degenerate) {
    long first;
    long last;
    if (degenerate || lo == hi) {
      first = (long) Math.ceil(lo) - 1;
      last = (long) Math.floor(hi);
    } else {
      first = (long) Math.floor(lo);
      last = (long) Math.ceil(hi) - 1;
    }
    first = Math.max(first, 0);
    last = Math.min(last, size - 1);
    return first <= last ? new long[] {first, last} : null;
  }

  private static double snap(double v) {
    double r = Math.rint(v);
    return Math.abs(v - r) < EDGE_SNAP ? r : v;
  }
}
