package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.locationtech.jts.algorithm.PointLocation;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateArrays;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.index.strtree.STRtree;
import org.locationtech.jts.noding.BasicSegmentString;
import org.locationtech.jts.noding.MCIndexNoder;
import org.locationtech.jts.noding.SegmentIntersector;
import org.locationtech.jts.noding.SegmentString;

/**
 * The OGC validity of a polygon or multi-polygon, checked in O(n log n) for any number of holes:
 * JTS's {@code IsValidOp} locates every hole in the shell by walking the whole shell, which is
 * quadratic (eight minutes for Canada's mainland with its 145,000 lakes). The rules are OGC's:
 *
 * <ul>
 *   <li>rings have four points or more and do not cross, overlap or touch themselves;
 *   <li>rings of a polygon meet only at points, and never so that they cut its interior in two (a
 *       cycle of touching rings, or two rings touching twice);
 *   <li>holes lie inside their shell and not inside one another;
 *   <li>the polygons of a multi-polygon meet only at points, and none lies inside another.
 * </ul>
 *
 * All segments are searched once through a monotone-chain index; each location test goes through an
 * indexed point-in-area locator. The report names the polygons at fault, so that a repair can work
 * on those alone.
 */
final class PolygonValidity {

  /**
   * What the check found.
   *
   * @param bad the polygons (by index in the geometry) that are invalid on their own
   * @param overlapping pairs of polygons whose boundaries cross or overlap
   * @param nested pairs {@code (inner, outer)} of polygons one of which lies inside the other's
   *     area
   * @param problem the first problem found, for messages; null when valid
   */
  record Report(BitSet bad, List<int[]> overlapping, List<int[]> nested, String problem) {

    /** Whether the geometry is valid. */
    boolean valid() {
      return problem == null;
    }
  }

  private final Geometry geometry;
  private final List<Polygon> polygons = new ArrayList<>();
  private final List<LinearRing> rings = new ArrayList<>();
  private final List<Integer> polygonOf = new ArrayList<>();
  private final BitSet bad = new BitSet();
  private final List<int[]> overlapping = new ArrayList<>();
  private final List<int[]> nested = new ArrayList<>();
  private final Set<Long> pairs = new HashSet<>();
  private String problem;

  private PolygonValidity(Geometry geometry) {
    this.geometry = geometry;
  }

  /** Checks a polygon or multi-polygon. */
  static Report check(Geometry polygonal) {
    PolygonValidity v = new PolygonValidity(polygonal);
    v.run();
    return new Report(v.bad, v.overlapping, v.nested, v.problem);
  }

  private void run() {
    for (int i = 0; i < geometry.getNumGeometries(); i++) {
      Polygon p = (Polygon) geometry.getGeometryN(i);
      polygons.add(p);
      for (int r = 0; r <= p.getNumInteriorRing(); r++) {
        LinearRing ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
        if (ring.isEmpty()
            || CoordinateArrays.removeRepeatedPoints(ring.getCoordinates()).length < 4
            || !ring.isClosed()) {
          badPolygon(i, "a ring with fewer than four points");
          continue;
        }
        rings.add(ring);
        polygonOf.add(i);
      }
    }
    findIntersections();
    for (int i = 0; i < polygons.size(); i++) {
      if (!bad.get(i)) {
        checkHoles(i);
      }
    }
    checkNestedPolygons();
  }

  private void badPolygon(int polygon, String why) {
    bad.set(polygon);
    if (problem == null) {
      problem = why;
    }
  }

  private void overlap(int a, int b, String why) {
    long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
    if (pairs.add(key)) {
      overlapping.add(new int[] {Math.min(a, b), Math.max(a, b)});
    }
    if (problem == null) {
      problem = why;
    }
  }

  /** Every place two segments meet: crossings and overlaps are faults, touches are recorded. */
  private void findIntersections() {
    List<SegmentString> strings = new ArrayList<>(rings.size());
    for (int r = 0; r < rings.size(); r++) {
      // Repeated points make zero-length segments, across which neighbours would seem to touch.
      strings.add(
          new BasicSegmentString(
              CoordinateArrays.removeRepeatedPoints(rings.get(r).getCoordinates()), r));
    }
    Touches touches = new Touches(rings.size());
    RobustLineIntersector li = new RobustLineIntersector();
    SegmentIntersector finder =
        new SegmentIntersector() {
          @Override
          public void processIntersections(SegmentString a, int i, SegmentString b, int j) {
            int ra = (Integer) a.getData();
            int rb = (Integer) b.getData();
            Coordinate[] ca = a.getCoordinates();
            Coordinate[] cb = b.getCoordinates();
            li.computeIntersection(ca[i], ca[i + 1], cb[j], cb[j + 1]);
            if (!li.hasIntersection()) {
              return;
            }
            boolean adjacent =
                ra == rb
                    && (Math.abs(i - j) == 1
                        || (Math.min(i, j) == 0 && Math.max(i, j) == ca.length - 2));
            if (ra == rb && i == j) {
              return;
            }
            if (adjacent) {
              // Neighbouring segments share their vertex; folding back over each other is a fault.
              if (li.getIntersectionNum() == 2) {
                fault(ra, rb, "a ring folds back on itself", li.getIntersection(0));
              }
              return;
            }
            Coordinate at = li.getIntersection(0);
            if (li.isProper()) {
              fault(ra, rb, "rings cross", at);
            } else if (li.getIntersectionNum() == 2) {
              fault(ra, rb, "rings overlap along a segment", at);
            } else if (ra == rb) {
              fault(ra, rb, "a ring touches itself", at);
            } else {
              touches.add(ra, rb, li.getIntersection(0));
            }
          }

          @Override
          public boolean isDone() {
            return false;
          }
        };
    new MCIndexNoder(finder).computeNodes(strings);
  }

  private void fault(int ringA, int ringB, String why, Coordinate at) {
    int pa = polygonOf.get(ringA);
    int pb = polygonOf.get(ringB);
    String where = " at (" + at.x + ", " + at.y + ")";
    if (pa == pb) {
      badPolygon(pa, why + where);
    } else {
      overlap(pa, pb, "two polygons " + why.replace("rings ", "") + where);
    }
  }

  /**
   * Where the rings of one polygon touch. Rings and touch points form a graph (a ring is joined to
   * each point it touches at) that must have no cycle: two rings touching at two points, or a chain
   * of touching rings coming back to its start, enclose part of the interior. Three rings meeting
   * at one point make no cycle.
   */
  private final class Touches {
    private final List<Integer> parent = new ArrayList<>();
    private final Map<Coordinate, Integer> points = new HashMap<>();
    private final Set<Long> incidences = new HashSet<>();

    Touches(int rings) {
      for (int i = 0; i < rings; i++) {
        parent.add(i);
      }
    }

    void add(int a, int b, Coordinate at) {
      if (!polygonOf.get(a).equals(polygonOf.get(b))) {
        return;
      }
      Integer node = points.get(at);
      if (node == null) {
        node = parent.size();
        parent.add(node);
        points.put(new Coordinate(at), node);
      }
      join(a, node, at);
      join(b, node, at);
    }

    private void join(int ring, int node, Coordinate at) {
      if (!incidences.add(((long) ring << 32) | node)) {
        return;
      }
      int ra = find(ring);
      int rb = find(node);
      if (ra == rb) {
        badPolygon(
            polygonOf.get(ring),
            "touching rings cut the interior in two at (" + at.x + ", " + at.y + ")");
      } else {
        parent.set(ra, rb);
      }
    }

    private int find(int i) {
      while (parent.get(i) != i) {
        parent.set(i, parent.get(parent.get(i)));
        i = parent.get(i);
      }
      return i;
    }
  }

  /** Holes lie in their shell and not in one another. */
  private void checkHoles(int index) {
    Polygon p = polygons.get(index);
    int holes = p.getNumInteriorRing();
    if (holes == 0) {
      return;
    }
    IndexedPointInAreaLocator shell =
        new IndexedPointInAreaLocator(p.getFactory().createPolygon(p.getExteriorRing()));
    STRtree holeBoxes = new STRtree();
    for (int h = 0; h < holes; h++) {
      LinearRing hole = p.getInteriorRingN(h);
      if (location(shell, hole) != Location.INTERIOR) {
        badPolygon(index, "a hole lies outside its shell");
        return;
      }
      holeBoxes.insert(hole.getEnvelopeInternal(), h);
    }
    for (int h = 0; h < holes; h++) {
      LinearRing hole = p.getInteriorRingN(h);
      Envelope e = hole.getEnvelopeInternal();
      for (Object o : holeBoxes.query(e)) {
        int other = (Integer) o;
        LinearRing outer = p.getInteriorRingN(other);
        if (other != h
            && outer.getEnvelopeInternal().covers(e)
            && insideRing(hole, outer.getCoordinates())) {
          badPolygon(index, "a hole lies inside another");
          return;
        }
      }
    }
  }

  /** No polygon of a multi-polygon lies inside another's area. */
  private void checkNestedPolygons() {
    if (polygons.size() < 2) {
      return;
    }
    STRtree index = new STRtree();
    for (int i = 0; i < polygons.size(); i++) {
      index.insert(polygons.get(i).getEnvelopeInternal(), i);
    }
    IndexedPointInAreaLocator[] located = new IndexedPointInAreaLocator[polygons.size()];
    for (int i = 0; i < polygons.size(); i++) {
      Polygon p = polygons.get(i);
      Envelope e = p.getEnvelopeInternal();
      for (Object o : index.query(e)) {
        int j = (Integer) o;
        if (j == i || !polygons.get(j).getEnvelopeInternal().covers(e)) {
          continue;
        }
        if (located[j] == null) {
          located[j] = new IndexedPointInAreaLocator(polygons.get(j));
        }
        if (location(located[j], p.getExteriorRing()) == Location.INTERIOR) {
          nested.add(new int[] {i, j});
          if (problem == null) {
            problem = "a polygon lies inside another";
          }
        }
      }
    }
  }

  /** Where the ring lies: decided by its first vertex not on the area's boundary. */
  static int location(IndexedPointInAreaLocator area, LinearRing ring) {
    Coordinate[] c = ring.getCoordinates();
    for (Coordinate p : c) {
      int where = area.locate(p);
      if (where != Location.BOUNDARY) {
        return where;
      }
    }
    return Location.BOUNDARY;
  }

  /** Whether the ring lies inside the other ring (by its first vertex not on it). */
  private static boolean insideRing(LinearRing ring, Coordinate[] other) {
    for (Coordinate p : ring.getCoordinates()) {
      int where = PointLocation.locateInRing(p, other);
      if (where != Location.BOUNDARY) {
        return where == Location.INTERIOR;
      }
    }
    return false;
  }
}
