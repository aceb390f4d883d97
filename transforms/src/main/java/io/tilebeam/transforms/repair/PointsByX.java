package io.tilebeam.transforms.repair;

import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;

/**
 * Points sorted by x, asked whether any lies in a box: where a validity check found rings meeting
 * ({@link PolygonValidity.Report#contacts()}), so that a repair walks only the rings whose boxes
 * hold such a point and leaves the rest (most of a mainland's lakes) as they are.
 */
final class PointsByX {

  private final double[] x;
  private final double[] y;

  PointsByX(List<Coordinate> points) {
    Coordinate[] sorted = points.toArray(Coordinate[]::new);
    Arrays.sort(sorted, (a, b) -> Double.compare(a.x, b.x));
    x = new double[sorted.length];
    y = new double[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      x[i] = sorted[i].x;
      y[i] = sorted[i].y;
    }
  }

  /** Whether there are no points. */
  boolean none() {
    return x.length == 0;
  }

  /** Whether a point lies in the box, its edges included. */
  boolean within(Envelope box) {
    for (int i = first(box.getMinX()); i < x.length && x[i] <= box.getMaxX(); i++) {
      if (y[i] >= box.getMinY() && y[i] <= box.getMaxY()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The points in the box {@code [x0, x1] × [y0, y1]}, edges included, in order of x: when there
   * are any, a new list the caller may change.
   */
  List<Coordinate> in(double x0, double y0, double x1, double y1) {
    List<Coordinate> out = List.of();
    for (int i = first(x0); i < x.length && x[i] <= x1; i++) {
      if (y[i] >= y0 && y[i] <= y1) {
        if (out.isEmpty()) {
          out = new java.util.ArrayList<>();
        }
        out.add(new Coordinate(x[i], y[i]));
      }
    }
    return out;
  }

  /** The index of the first point with x not below {@code x0}. */
  private int first(double x0) {
    int lo = 0;
    int hi = x.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (x[mid] < x0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
