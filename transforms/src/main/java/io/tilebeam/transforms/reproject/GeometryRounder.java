package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.repair.RingChecks;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.MultiLineString;
import org.locationtech.jts.geom.MultiPoint;
import org.locationtech.jts.geom.MultiPolygon;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.impl.CoordinateArraySequence;

/**
 * Rounds every coordinate to a fixed number of decimals, one coordinate at a time, dropping the
 * repeated points this makes and the parts it collapses (a ring with no area left, a line with one
 * point). Unlike snap-rounding it never moves topology around, so it costs one pass; validity is
 * checked afterwards ({@link GeometryRepair}) and the rare piece it broke is repaired there.
 */
final class GeometryRounder {

  private final double scale;
  private final GeometryFactory factory;

  /** A rounder to {@code digits} decimals. */
  GeometryRounder(int digits) {
    this.scale = Math.pow(10, digits);
    this.factory = new GeometryFactory();
  }

  /** The value rounded to the grid, ties to even, the same on every machine. */
  double round(double v) {
    return Math.rint(v * scale) / scale;
  }

  /** The geometry rounded; empty when nothing is left of it. */
  Geometry round(Geometry g) {
    Geometry r = roundPart(g);
    return r == null ? factory.createGeometryCollection() : r;
  }

  /**
   * The number of points {@link #round} would give a polygonal geometry (a polygon or a
   * multipolygon of them), counted without making it: the same rounding, repeats and collapsed
   * rings; -1 for any other geometry.
   */
  int roundedPoints(Geometry g) {
    if (g instanceof Polygon p) {
      return roundedPoints(p);
    }
    if (!(g instanceof MultiPolygon)) {
      return -1;
    }
    int n = 0;
    for (int i = 0; i < g.getNumGeometries(); i++) {
      n += roundedPoints((Polygon) g.getGeometryN(i));
    }
    return n;
  }

  private int roundedPoints(Polygon p) {
    if (p.isEmpty()) {
      return 0;
    }
    int shell = ringPoints(p.getExteriorRing().getCoordinateSequence());
    if (shell == 0) {
      return 0;
    }
    int n = shell;
    for (int i = 0; i < p.getNumInteriorRing(); i++) {
      n += ringPoints(p.getInteriorRingN(i).getCoordinateSequence());
    }
    return n;
  }

  /**
   * The points of a closed ring rounded without repeats, or 0 when it collapses: {@link #ring}'s
   * points and its test that they are not all on one line ({@link RingChecks#spansArea}), the same
   * products of the same values, as the points come.
   */
  private int ringPoints(CoordinateSequence s) {
    int k = 0;
    double x0 = 0;
    double y0 = 0;
    double lastX = 0;
    double lastY = 0;
    boolean spans = false;
    for (int i = 0; i < s.size(); i++) {
      double x = round(s.getX(i));
      double y = round(s.getY(i));
      if (k > 0 && x == lastX && y == lastY) {
        continue;
      }
      if (k == 0) {
        x0 = x;
        y0 = y;
      } else if (k >= 2 && !spans) {
        // Points k - 1 and k: spansArea's pair (i, i + 1) for i = k - 1 >= 1.
        spans = (lastX - x0) * (y - y0) != (x - x0) * (lastY - y0);
      }
      lastX = x;
      lastY = y;
      k++;
    }
    return k >= 4 && spans ? k : 0;
  }

  private Geometry roundPart(Geometry g) {
    if (g instanceof Point p) {
      return p.isEmpty() ? null : factory.createPoint(points(p.getCoordinateSequence(), 1));
    }
    if (g instanceof LinearRing ring) {
      CoordinateSequence s = ring(ring.getCoordinateSequence());
      return s == null ? null : factory.createLinearRing(s);
    }
    if (g instanceof LineString l) {
      CoordinateSequence s = points(l.getCoordinateSequence(), 2);
      return s == null ? null : factory.createLineString(s);
    }
    if (g instanceof Polygon p) {
      return polygon(p);
    }
    List<Geometry> parts = new ArrayList<>(g.getNumGeometries());
    for (int i = 0; i < g.getNumGeometries(); i++) {
      Geometry r = roundPart(g.getGeometryN(i));
      if (r != null) {
        parts.add(r);
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    if (g instanceof MultiPolygon) {
      return factory.createMultiPolygon(parts.toArray(Polygon[]::new));
    }
    if (g instanceof MultiLineString) {
      return factory.createMultiLineString(parts.toArray(LineString[]::new));
    }
    if (g instanceof MultiPoint) {
      return factory.createMultiPoint(parts.toArray(Point[]::new));
    }
    if (g instanceof GeometryCollection) {
      return factory.createGeometryCollection(parts.toArray(Geometry[]::new));
    }
    return null;
  }

  private Polygon polygon(Polygon p) {
    CoordinateSequence shell = ring(p.getExteriorRing().getCoordinateSequence());
    if (shell == null) {
      return null;
    }
    List<LinearRing> holes = new ArrayList<>();
    for (int i = 0; i < p.getNumInteriorRing(); i++) {
      CoordinateSequence h = ring(p.getInteriorRingN(i).getCoordinateSequence());
      if (h != null) {
        holes.add(factory.createLinearRing(h));
      }
    }
    return factory.createPolygon(factory.createLinearRing(shell), holes.toArray(LinearRing[]::new));
  }

  /** A closed ring's points rounded, or null when it has collapsed onto a line or a point. */
  private CoordinateSequence ring(CoordinateSequence s) {
    CoordinateSequence r = points(s, 4);
    return r == null || !RingChecks.spansArea(r) ? null : r;
  }

  /** The points rounded without repeats, or null when fewer than {@code min} are left. */
  private CoordinateSequence points(CoordinateSequence s, int min) {
    int n = s.size();
    Coordinate[] out = new Coordinate[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      double x = round(s.getX(i));
      double y = round(s.getY(i));
      if (k == 0 || x != out[k - 1].x || y != out[k - 1].y) {
        out[k++] = new Coordinate(x, y);
      }
    }
    if (k < min) {
      return null;
    }
    return new CoordinateArraySequence(k == n ? out : java.util.Arrays.copyOf(out, k));
  }
}
