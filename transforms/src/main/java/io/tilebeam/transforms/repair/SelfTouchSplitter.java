package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.MultiPolygon;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.impl.CoordinateArraySequence;
import org.locationtech.jts.noding.IntersectionAdder;
import org.locationtech.jts.noding.MCIndexNoder;
import org.locationtech.jts.noding.NodedSegmentString;
import org.locationtech.jts.noding.SegmentString;

/**
 * Splits rings that pass twice through a vertex into separate rings, in linear time: the way much
 * real data (and Esri's model) draws a hole that touches its shell, or two islands that share a
 * point, as one ring. OGC and JTS call that ring invalid; split at the point, each loop is a shell
 * or a hole by where it lies: a loop inside another loop of its ring is of the other kind (an
 * inverted hole in a shell, an island in a lake), loops side by side are of the ring's kind (two
 * lobes meeting at a point), and the polygon is valid without an overlay.
 */
final class SelfTouchSplitter {

  private SelfTouchSplitter() {}

  /**
   * The polygonal geometry with every self-touching ring split; others are returned as they are,
   * and a geometry without such a ring is returned itself.
   */
  static Geometry split(Geometry g) {
    return split(g, null, null);
  }

  /**
   * {@link #split(Geometry)} by a validity check's report of {@code g} (or of a geometry that lost
   * only points since). Only the rings whose boxes hold one of the points where the check found
   * rings meeting themselves ({@link PolygonValidity.Report#selfContacts()}) are looked at: a ring
   * that meets itself does so at such a point, and the rest, most of a mainland's lakes, are not
   * walked. A ring whose box holds none of the places where a ring crosses, runs along or folds
   * back on itself ({@link PolygonValidity.Report#selfCrossings()}) meets itself only where one of
   * its vertices lies on it, and gets those vertices put into the segments they lie on from the
   * report's contacts, instead of being noded against itself. Null contacts look at every ring;
   * null crossings node every ring looked at.
   */
  static Geometry split(Geometry g, PolygonValidity.Report report) {
    return split(g, report.selfContacts(), report.selfCrossings());
  }

  private static Geometry split(Geometry g, List<Coordinate> contacts, List<Coordinate> crossings) {
    PointsByX at = contacts == null ? null : new PointsByX(contacts);
    if (at != null && at.none()) {
      return g;
    }
    Touches touches =
        at == null || crossings == null ? null : new Touches(at, new PointsByX(crossings));
    if (g instanceof Polygon p) {
      List<Polygon> out = splitPolygon(p, at, touches);
      return out.size() == 1 ? out.get(0) : p.getFactory().createMultiPolygon(toArray(out));
    }
    if (g instanceof MultiPolygon mp) {
      List<Polygon> out = new ArrayList<>();
      boolean changed = false;
      for (int i = 0; i < mp.getNumGeometries(); i++) {
        Polygon p = (Polygon) mp.getGeometryN(i);
        List<Polygon> parts = splitPolygon(p, at, touches);
        changed |= parts.size() != 1 || parts.get(0) != p;
        out.addAll(parts);
      }
      return changed ? mp.getFactory().createMultiPolygon(toArray(out)) : mp;
    }
    return g;
  }

  private static Polygon[] toArray(List<Polygon> list) {
    return list.toArray(Polygon[]::new);
  }

  private static List<Polygon> splitPolygon(Polygon p, PointsByX at, Touches touches) {
    GeometryFactory f = p.getFactory();
    if (at != null && !at.within(p.getEnvelopeInternal())) {
      return List.of(p);
    }
    List<LinearRing> shells = new ArrayList<>();
    List<LinearRing> holes = new ArrayList<>();
    boolean changed = false;
    for (int r = 0; r <= p.getNumInteriorRing(); r++) {
      LinearRing ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
      if (at != null && !at.within(ring.getEnvelopeInternal())) {
        (r == 0 ? shells : holes).add(ring);
        continue;
      }
      Coordinate[] points = ring.getCoordinates();
      List<LinearRing> loops =
          loops(touches != null ? touches.noded(ring, points) : noded(points), f);
      if (loops.size() <= 1) {
        (r == 0 ? shells : holes).add(ring);
        continue;
      }
      changed = true;
      int[] depth = depths(loops);
      for (int i = 0; i < loops.size(); i++) {
        // A loop inside another loop of its ring is of the other kind: an inverted hole in a
        // shell, an island in a hole. Loops side by side (two lobes, a figure eight) are of the
        // ring's own kind.
        boolean sameKind = depth[i] % 2 == 0;
        (sameKind == (r == 0) ? shells : holes).add(loops.get(i));
      }
    }
    if (!changed) {
      return List.of(p);
    }
    return assemble(shells, holes, f);
  }

  /** For each loop, how many of the other loops hold it. */
  private static int[] depths(List<LinearRing> loops) {
    int[] depth = new int[loops.size()];
    RingLocator[] located = new RingLocator[loops.size()];
    for (int i = 0; i < loops.size(); i++) {
      Envelope e = loops.get(i).getEnvelopeInternal();
      for (int j = 0; j < loops.size(); j++) {
        if (i == j || !loops.get(j).getEnvelopeInternal().covers(e)) {
          continue;
        }
        if (located[j] == null) {
          located[j] = RingLocator.of(loops.get(j));
        }
        if (located[j].locate(loops.get(i)) == Location.INTERIOR) {
          depth[i]++;
        }
      }
    }
    return depth;
  }

  /**
   * The ring's loops: walking the ring, a vertex met again closes the loop since its first visit,
   * which is taken out; what is left at the end is the last loop.
   */
  private static List<LinearRing> loops(Coordinate[] ring, GeometryFactory f) {
    CoordinateSequence s = new CoordinateArraySequence(ring);
    int n = s.size() - 1;
    Map<Coordinate, Integer> seen = new HashMap<>();
    double[] path = new double[2 * (n + 1)];
    int top = 0;
    List<LinearRing> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Coordinate c = new Coordinate(s.getX(i), s.getY(i));
      Integer at = seen.get(c);
      if (at != null) {
        // path[at..top) and back to c is a loop.
        int points = top - at;
        if (points >= 3 && spans(path, at, top)) {
          double[] loop = new double[2 * points + 2];
          System.arraycopy(path, 2 * at, loop, 0, 2 * points);
          loop[2 * points] = loop[0];
          loop[2 * points + 1] = loop[1];
          out.add(f.createLinearRing(sequence(loop)));
        }
        for (int k = at + 1; k < top; k++) {
          seen.remove(new Coordinate(path[2 * k], path[2 * k + 1]));
        }
        top = at + 1;
        continue;
      }
      seen.put(c, top);
      path[2 * top] = c.x;
      path[2 * top + 1] = c.y;
      top++;
    }
    if (top >= 3 && (out.isEmpty() || spans(path, top))) {
      double[] loop = new double[2 * top + 2];
      System.arraycopy(path, 0, loop, 0, 2 * top);
      loop[2 * top] = loop[0];
      loop[2 * top + 1] = loop[1];
      out.add(f.createLinearRing(sequence(loop)));
    }
    return out;
  }

  /**
   * The ring with a vertex added wherever it touches or crosses itself inside a segment, so that
   * every self-contact is a repeated vertex the loops can be split at.
   */
  private static Coordinate[] noded(Coordinate[] ring) {
    NodedSegmentString noded = new NodedSegmentString(ring, null);
    IntersectionAdder adder = new IntersectionAdder(new RobustLineIntersector());
    new MCIndexNoder(adder).computeNodes(List.of(noded));
    if (!adder.hasIntersection()) {
      return ring;
    }
    List<Coordinate> out = new ArrayList<>(ring.length + 16);
    for (Object part : NodedSegmentString.getNodedSubstrings(List.of(noded))) {
      for (Coordinate c : ((SegmentString) part).getCoordinates()) {
        if (out.isEmpty() || !out.get(out.size() - 1).equals2D(c)) {
          out.add(c);
        }
      }
    }
    return out.toArray(Coordinate[]::new);
  }

  /**
   * Where a check found rings meeting themselves: its contact points, and those of them where a
   * ring crosses, runs along or folds back on itself.
   */
  private record Touches(PointsByX contacts, PointsByX crossings) {

    /**
     * The ring noded against itself ({@link SelfTouchSplitter#noded}): when it neither crosses nor
     * runs along itself, it meets itself only where a vertex of its own lies inside one of its
     * segments, at a contact point, and those are put into the segments, as noding would.
     */
    Coordinate[] noded(LinearRing ring, Coordinate[] points) {
      Envelope box = ring.getEnvelopeInternal();
      if (crossings.within(box)) {
        return SelfTouchSplitter.noded(points);
      }
      List<Coordinate> near =
          contacts.in(box.getMinX(), box.getMinY(), box.getMaxX(), box.getMaxY());
      // Only the ring's own vertices: a contact of another ring that lies on this one is a meeting
      // of two rings, which noding the ring alone does not see either.
      java.util.Set<Coordinate> own = new java.util.HashSet<>();
      java.util.Set<Coordinate> candidates = new java.util.HashSet<>(near);
      for (Coordinate c : points) {
        if (candidates.contains(c)) {
          own.add(c);
        }
      }
      if (own.isEmpty()) {
        return points;
      }
      PointsByX vertices = new PointsByX(new ArrayList<>(own));
      List<Coordinate> out = new ArrayList<>(points.length + own.size());
      for (int k = 0; k + 1 < points.length; k++) {
        Coordinate a = points[k];
        Coordinate b = points[k + 1];
        out.add(a);
        List<Coordinate> on =
            vertices.in(
                Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
        if (on.isEmpty()) {
          continue;
        }
        on.removeIf(
            q ->
                q.equals2D(a)
                    || q.equals2D(b)
                    || org.locationtech.jts.algorithm.Orientation.index(a, b, q)
                        != org.locationtech.jts.algorithm.Orientation.COLLINEAR);
        on.sort(java.util.Comparator.comparingDouble(q -> q.distance(a)));
        out.addAll(on);
      }
      out.add(points[points.length - 1]);
      return out.toArray(Coordinate[]::new);
    }
  }

  /** Whether the path's points from {@code from} to {@code to} (exclusive) enclose an area. */
  private static boolean spans(double[] path, int from, int to) {
    double x0 = path[2 * from];
    double y0 = path[2 * from + 1];
    for (int i = from + 1; i + 1 < to; i++) {
      double ax = path[2 * i] - x0;
      double ay = path[2 * i + 1] - y0;
      double bx = path[2 * i + 2] - x0;
      double by = path[2 * i + 3] - y0;
      if (ax * by != bx * ay) {
        return true;
      }
    }
    return false;
  }

  private static boolean spans(double[] path, int to) {
    return spans(path, 0, to);
  }

  /** Shells with the holes each holds (the smallest shell holding a hole's point). */
  private static List<Polygon> assemble(
      List<LinearRing> shells, List<LinearRing> holes, GeometryFactory f) {
    List<List<LinearRing>> holesOf = new ArrayList<>();
    List<Envelope> boxes = new ArrayList<>();
    // Built in linear time (a mainland's loop holds a million points, and each of its lakes is
    // located in it): JTS's indexed locator sorts the segments first.
    List<RingLocator> located = new ArrayList<>();
    for (LinearRing s : shells) {
      holesOf.add(new ArrayList<>());
      boxes.add(s.getEnvelopeInternal());
      located.add(null);
    }
    for (LinearRing hole : holes) {
      Envelope hb = hole.getEnvelopeInternal();
      int best = -1;
      double bestArea = Double.POSITIVE_INFINITY;
      for (int i = 0; i < shells.size(); i++) {
        if (!boxes.get(i).covers(hb) || boxes.get(i).getArea() >= bestArea) {
          continue;
        }
        if (located.get(i) == null) {
          located.set(i, RingLocator.of(shells.get(i)));
        }
        if (located.get(i).locate(hole) == Location.INTERIOR) {
          best = i;
          bestArea = boxes.get(i).getArea();
        }
      }
      if (best >= 0) {
        holesOf.get(best).add(hole);
      } else {
        // No shell holds it: left for the validity check to find, not dropped.
        shells.add(hole);
        holesOf.add(new ArrayList<>());
        boxes.add(hb);
        located.add(null);
      }
    }
    List<Polygon> out = new ArrayList<>();
    for (int i = 0; i < shells.size(); i++) {
      out.add(f.createPolygon(shells.get(i), holesOf.get(i).toArray(LinearRing[]::new)));
    }
    return out;
  }

  /** The points {@code x0, y0, x1, y1, ...} as a sequence. */
  static CoordinateSequence sequence(double[] xy) {
    Coordinate[] c = new Coordinate[xy.length / 2];
    for (int i = 0; i < c.length; i++) {
      c[i] = new Coordinate(xy[2 * i], xy[2 * i + 1]);
    }
    return new CoordinateArraySequence(c);
  }
}
