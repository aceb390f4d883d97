package io.tilebeam.transforms.cut;

/** Small computations on rings stored as {@code x0, y0, x1, y1, ...} without a closing point. */
final class Rings {

  private Rings() {}

  /**
   * Twice the signed area of the ring through the first {@code n} points (closed implicitly),
   * positive when anticlockwise in east/north axes. Coordinates are taken relative to the first
   * point so that large Web Mercator values do not swamp small rings.
   */
  static double doubleArea(double[] xy, int n) {
    if (n < 3) {
      return 0;
    }
    double x0 = xy[0];
    double y0 = xy[1];
    double sum = 0;
    double px = 0;
    double py = 0;
    for (int i = 1; i < n; i++) {
      double x = xy[2 * i] - x0;
      double y = xy[2 * i + 1] - y0;
      sum += px * y - x * py;
      px = x;
      py = y;
    }
    return sum;
  }

  /**
   * Whether the point lies inside the ring (even-odd rule; a point on an edge may go either way).
   */
  static boolean contains(double[] xy, int n, double x, double y) {
    boolean inside = false;
    for (int i = 0, j = n - 1; i < n; j = i++) {
      double xi = xy[2 * i];
      double yi = xy[2 * i + 1];
      double xj = xy[2 * j];
      double yj = xy[2 * j + 1];
      if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) {
        inside = !inside;
      }
    }
    return inside;
  }
}
