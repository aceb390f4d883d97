package io.tilebeam.transforms.repair;

import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Polygon;

/**
 * A shortcut of the validity check for the commonest polygon of all: one small ring without holes
 * (a building, a parcel, a square of test data; most pieces of a tile). Every pair of its segments
 * is tested directly, which for a handful of segments costs far less than the general check's
 * segment grid and its tables.
 *
 * <p>It answers only "certainly valid": a ring whose segments meet nowhere but at their shared
 * vertices, with no three consecutive vertices on one line, is a simple closed curve around an
 * area, so the polygon is valid. Anything else it cannot clear (a touch, a crossing, a repeated or
 * collinear vertex, more than {@link #MAX_POINTS} points) goes to the general check, which decides
 * and names the fault. Orientation tests are JTS's exact ones, as the general check's.
 */
final class SmallRing {

  /** The most points (closing one included) a ring may have to be checked here. */
  static final int MAX_POINTS = 32;

  private SmallRing() {}

  /** Whether {@code p} is one ring of at most {@link #MAX_POINTS} points, certainly valid. */
  static boolean isSimpleShell(Polygon p) {
    if (p.getNumInteriorRing() != 0 || p.isEmpty()) {
      return false;
    }
    CoordinateSequence r = p.getExteriorRing().getCoordinateSequence();
    int n = r.size();
    if (n < 4 || n > MAX_POINTS || !closed(r)) {
      return false;
    }
    int segments = n - 1;
    for (int i = 0; i < segments; i++) {
      // Consecutive vertices: distinct, and not on one line (a fold-back or a spike, or a vertex
      // on a straight edge; the last is valid, but the general check is left to say so).
      int j = (i + 1) % segments;
      int k = (i + 2) % segments;
      if (same(r, i, j)
          || Orientation.index(r.getCoordinate(i), r.getCoordinate(j), r.getCoordinate(k)) == 0) {
        return false;
      }
    }
    for (int i = 0; i < segments; i++) {
      // Segments i and i + 1 share a vertex; so do the last and the first.
      for (int j = i + 2; j < segments; j++) {
        if (i == 0 && j == segments - 1) {
          continue;
        }
        if (mayMeet(r, i, j)) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean closed(CoordinateSequence r) {
    return same(r, 0, r.size() - 1);
  }

  private static boolean same(CoordinateSequence r, int a, int b) {
    return r.getX(a) == r.getX(b) && r.getY(a) == r.getY(b);
  }

  /**
   * Whether segments {@code a} and {@code b} (from point {@code a} to {@code a + 1}) may meet:
   * false only when they certainly do not.
   */
  private static boolean mayMeet(CoordinateSequence r, int a, int b) {
    Coordinate a0 = r.getCoordinate(a);
    Coordinate a1 = r.getCoordinate(a + 1);
    Coordinate b0 = r.getCoordinate(b);
    Coordinate b1 = r.getCoordinate(b + 1);
    if (!Envelope.intersects(a0, a1, b0, b1)) {
      return false;
    }
    int o1 = Orientation.index(a0, a1, b0);
    int o2 = Orientation.index(a0, a1, b1);
    int o3 = Orientation.index(b0, b1, a0);
    int o4 = Orientation.index(b0, b1, a1);
    if (o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0) {
      return true;
    }
    // Both segments have their ends on opposite sides of the other's line: they cross.
    return o1 != o2 && o3 != o4;
  }
}
