package io.tilebeam.transforms.raster;

import io.tilebeam.transforms.crs.Bounds;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.TransformException;

/**
 * Where a tile's pixel centres fall in the source: transformed exactly at the nodes of a grid every
 * {@link #STEP} pixels and interpolated bilinearly between them, each cell checked at its centre
 * against the exact transformation and transformed pixel by pixel when the two differ by more than
 * {@link #TOLERANCE} of a source pixel. A projection's curvature over a few pixels is far smaller
 * than that, so almost every cell is interpolated: about 2,100 exact transformations a 256-pixel
 * tile instead of 65,536 (gdalwarp's own approximation, {@code -et 0.125}, allows 1,250 times more
 * error). A point that cannot be transformed is NaN.
 */
final class PixelCentres {

  /** Pixels between grid nodes. */
  static final int STEP = 8;

  /** The largest difference from the exact position allowed, in source pixels. */
  static final double TOLERANCE = 0.0001;

  private PixelCentres() {}

  /**
   * The source position of every pixel centre of a {@code size × size} tile over {@code b}, x then
   * y, row by row from the top-left.
   */
  static double[] of(Bounds b, int size, MathTransform toGrid) {
    double w = b.width() / size;
    double h = b.height() / size;
    int[] nodes = nodes(size);
    int n = nodes.length;
    double[] grid = new double[2 * n * n];
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        grid[2 * (j * n + i)] = b.minX() + (nodes[i] + 0.5) * w;
        grid[2 * (j * n + i) + 1] = b.maxY() - (nodes[j] + 0.5) * h;
      }
    }
    transform(toGrid, grid);
    double[] out = new double[2 * size * size];
    for (int cj = 0; cj + 1 < n; cj++) {
      for (int ci = 0; ci + 1 < n; ci++) {
        if (!interpolate(grid, nodes, ci, cj, size, b, w, h, toGrid, out)) {
          exact(nodes[ci], nodes[ci + 1], nodes[cj], nodes[cj + 1], size, b, w, h, toGrid, out);
        }
      }
    }
    if (n == 1) {
      exact(0, 0, 0, 0, size, b, w, h, toGrid, out);
    }
    return out;
  }

  /** Node pixel indices: 0, STEP, 2 STEP, ..., and the last pixel. */
  private static int[] nodes(int size) {
    int count = (size - 1 + STEP - 1) / STEP + 1;
    int[] out = new int[Math.max(1, count)];
    for (int k = 0; k < out.length; k++) {
      out[k] = Math.min(k * STEP, size - 1);
    }
    return out;
  }

  /**
   * Fills the cell between nodes (ci, cj) and (ci + 1, cj + 1), both ends included, by bilinear
   * interpolation if it passes the check at its centre; false when it does not.
   */
  private static boolean interpolate(
      double[] grid,
      int[] nodes,
      int ci,
      int cj,
      int size,
      Bounds b,
      double w,
      double h,
      MathTransform toGrid,
      double[] out) {
    int n = nodes.length;
    int x0 = nodes[ci];
    int x1 = nodes[ci + 1];
    int y0 = nodes[cj];
    int y1 = nodes[cj + 1];
    int a = 2 * (cj * n + ci);
    int c = 2 * (cj * n + ci + 1);
    int d = 2 * ((cj + 1) * n + ci);
    int e = 2 * ((cj + 1) * n + ci + 1);
    for (int k : new int[] {a, c, d, e}) {
      if (!Double.isFinite(grid[k]) || !Double.isFinite(grid[k + 1])) {
        return false;
      }
    }
    int mx = (x0 + x1) / 2;
    int my = (y0 + y1) / 2;
    double[] centre = {b.minX() + (mx + 0.5) * w, b.maxY() - (my + 0.5) * h};
    transform(toGrid, centre);
    double[] guess = new double[2];
    at(grid, a, c, d, e, x0, x1, y0, y1, mx, my, guess);
    if (!(Math.abs(guess[0] - centre[0]) <= TOLERANCE)
        || !(Math.abs(guess[1] - centre[1]) <= TOLERANCE)) {
      return false;
    }
    double[] p = new double[2];
    for (int y = y0; y <= y1; y++) {
      for (int x = x0; x <= x1; x++) {
        at(grid, a, c, d, e, x0, x1, y0, y1, x, y, p);
        out[2 * (y * size + x)] = p[0];
        out[2 * (y * size + x) + 1] = p[1];
      }
    }
    return true;
  }

  /** The bilinear interpolation at pixel (x, y) of the cell with corners a, c (top), d, e. */
  private static void at(
      double[] g,
      int a,
      int c,
      int d,
      int e,
      int x0,
      int x1,
      int y0,
      int y1,
      int x,
      int y,
      double[] out) {
    double fx = x1 == x0 ? 0 : (double) (x - x0) / (x1 - x0);
    double fy = y1 == y0 ? 0 : (double) (y - y0) / (y1 - y0);
    for (int k = 0; k < 2; k++) {
      double top = g[a + k] + (g[c + k] - g[a + k]) * fx;
      double bottom = g[d + k] + (g[e + k] - g[d + k]) * fx;
      out[k] = top + (bottom - top) * fy;
    }
  }

  /** Every pixel of the cell [x0, x1] × [y0, y1] transformed on its own. */
  private static void exact(
      int x0,
      int x1,
      int y0,
      int y1,
      int size,
      Bounds b,
      double w,
      double h,
      MathTransform toGrid,
      double[] out) {
    int cols = x1 - x0 + 1;
    double[] points = new double[2 * cols * (y1 - y0 + 1)];
    for (int y = y0; y <= y1; y++) {
      for (int x = x0; x <= x1; x++) {
        int at = 2 * ((y - y0) * cols + (x - x0));
        points[at] = b.minX() + (x + 0.5) * w;
        points[at + 1] = b.maxY() - (y + 0.5) * h;
      }
    }
    transform(toGrid, points);
    for (int y = y0; y <= y1; y++) {
      System.arraycopy(points, 2 * (y - y0) * cols, out, 2 * (y * size + x0), 2 * cols);
    }
  }

  /**
   * Transforms points in place; a point that cannot be transformed (outside the projection's
   * domain) becomes NaN, no data, rather than failing the tile.
   */
  static void transform(MathTransform t, double[] points) {
    double[] source = points.clone();
    try {
      t.transform(source, 0, points, 0, points.length / 2);
    } catch (TransformException e) {
      // Again point by point, each failure no data: the bulk call's output is not specified.
      double[] one = new double[2];
      for (int at = 0; at < points.length; at += 2) {
        one[0] = source[at];
        one[1] = source[at + 1];
        try {
          t.transform(one, 0, one, 0, 1);
          points[at] = one[0];
          points[at + 1] = one[1];
        } catch (TransformException outside) {
          points[at] = Double.NaN;
          points[at + 1] = Double.NaN;
        }
      }
    }
  }
}
