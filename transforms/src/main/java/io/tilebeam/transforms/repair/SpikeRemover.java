package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.GeometryTransformer;

/**
 * Removes spikes from rings (a vertex the ring goes out to and straight back from, which rounding
 * makes of a thin sliver) and drops rings left without area; lines and points pass through. One
 * pass over the vertices.
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

  /** The ring without spikes (A, B, A becomes A), or null when it has collapsed. */
  private static LinearRing ring(CoordinateSequence s, GeometryFactory f) {
    int n = s.size() - 1;
    double[] xy = new double[2 * n + 2];
    int k = 0;
    for (int i = 0; i < n; i++) {
      double x = s.getX(i);
      double y = s.getY(i);
      if (k >= 2 && xy[2 * k - 4] == x && xy[2 * k - 3] == y) {
        k--;
        continue;
      }
      if (k >= 1 && xy[2 * k - 2] == x && xy[2 * k - 1] == y) {
        continue;
      }
      xy[2 * k] = x;
      xy[2 * k + 1] = y;
      k++;
    }
    // The spike may straddle the ring's start.
    while (k >= 3 && xy[0] == xy[2 * k - 4] && xy[1] == xy[2 * k - 3]) {
      k -= 2;
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
}
