package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.GeometryTransformer;

/**
 * Removes spikes from rings (a vertex where the ring turns straight back along its own line, which
 * rounding makes of a thin sliver and which real data has where a coastline was digitised twice)
 * and drops rings left without area; lines and points pass through. One pass over the vertices.
 */
final class SpikeRemover extends GeometryTransformer {

  @Override
  protected Geometry transformPolygon(Polygon p, Geometry parent) {
    GeometryFactory f = p.getFactory();
    LinearRing shell = ring(p.getExteriorRing().getCoordinateSequence(), f);
    if (shell == null) {
      return f.createPolygon();
    }
    List<LinearRing> holes = new ArrayList<>();
    for (int i = 0; i < p.getNumInteriorRing(); i++) {
      LinearRing h = ring(p.getInteriorRingN(i).getCoordinateSequence(), f);
      if (h != null) {
        holes.add(h);
      }
    }
    return f.createPolygon(shell, holes.toArray(LinearRing[]::new));
  }

  /**
   * The ring without spikes, or null when it has collapsed: a vertex where the ring turns straight
   * back along its own line (A, B, A becomes A; A, B, C with C on the way back from B to A becomes
   * A, C) encloses no area, so removing it changes none; what is left is checked again, as a
   * removal can make the previous vertex a spike.
   */
  private static LinearRing ring(CoordinateSequence s, GeometryFactory f) {
    int n = s.size() - 1;
    double[] xy = new double[2 * n + 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      double x = s.getX(i);
      double y = s.getY(i);
      if (k >= 1 && xy[2 * k - 2] == x && xy[2 * k - 1] == y) {
        continue;
      }
      while (k >= 2 && turnsBack(xy, k - 2, k - 1, x, y)) {
        k--;
      }
      if (k >= 1 && xy[2 * k - 2] == x && xy[2 * k - 1] == y) {
        continue;
      }
      xy[2 * k] = x;
      xy[2 * k + 1] = y;
      k++;
    }
    // A spike may straddle the ring's start: at its last vertex or its first.
    boolean removed = true;
    while (k >= 3 && removed) {
      removed = false;
      if (turnsBack(xy, k - 2, k - 1, xy[0], xy[1])) {
        k--;
        removed = true;
      } else if (turnsBack(xy, k - 1, 0, xy[2], xy[3])) {
        System.arraycopy(xy, 2, xy, 0, 2 * k - 2);
        k--;
        removed = true;
      }
      if (k >= 2 && xy[0] == xy[2 * k - 2] && xy[1] == xy[2 * k - 1]) {
        k--;
        removed = true;
      }
    }
    if (k < 3) {
      return null;
    }
    double[] closed = java.util.Arrays.copyOf(xy, 2 * k + 2);
    closed[2 * k] = closed[0];
    closed[2 * k + 1] = closed[1];
    CoordinateSequence seq = SelfTouchSplitter.sequence(closed);
    return RingChecks.spansArea(seq) ? f.createLinearRing(seq) : null;
  }

  /**
   * Whether the ring, going from point {@code a} to point {@code b} of {@code xy} and on to (x, y),
   * turns straight back at b: the three points on one line (an exact test) and the second step
   * against the first.
   */
  private static boolean turnsBack(double[] xy, int a, int b, double x, double y) {
    double ax = xy[2 * a];
    double ay = xy[2 * a + 1];
    double bx = xy[2 * b];
    double by = xy[2 * b + 1];
    if ((bx - ax) * (x - bx) + (by - ay) * (y - by) >= 0) {
      return false;
    }
    return Orientation.index(new Coordinate(ax, ay), new Coordinate(bx, by), new Coordinate(x, y))
        == Orientation.COLLINEAR;
  }
}
