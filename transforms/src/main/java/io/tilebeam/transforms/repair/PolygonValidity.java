package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.algorithm.PointLocation;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateArrays;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;

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
 * All segments are searched once through a grid ({@link SegmentPairs}); each location test goes
 * through an indexed point-in-area locator. The report names the polygons at fault, so that a
 * repair can work on those alone.
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
   * @param shellAtFault the polygons whose shell crosses, overlaps, touches or folds back on a ring
   *     of its own polygon (itself included): merging holes cannot mend them
   * @param selfContacts the points where a ring crosses, overlaps or touches itself (neighbouring
   *     segments aside): a ring whose box holds none of them needs no splitting
   * @param contacts a point of every place where two rings of one polygon meet, or one meets
   *     itself: a ring whose box holds none of them meets no other ring of its polygon (both lists
   *     null in a report not made by a check: every ring is then looked at)
   * @param selfCrossings a point of every place where a ring crosses itself, runs along itself or
   *     folds back: a ring whose box holds none of them meets itself only where one of its vertices
   *     lies on it (null when not known)
   */
  record Report(
      BitSet bad,
      List<int[]> overlapping,
      List<int[]> nested,
      String problem,
      BitSet shellAtFault,
      List<Coordinate> selfContacts,
      List<Coordinate> contacts,
      List<Coordinate> selfCrossings) {

    /** Whether the geometry is valid. */
    boolean valid() {
      return problem == null;
    }
  }

  private final Geometry geometry;
  private final List<Polygon> polygons = new ArrayList<>();

  /** Each usable ring's points without repeats: zero-length segments would seem to touch. */
  private final List<Coordinate[]> rings = new ArrayList<>();

  private final List<Integer> polygonOf = new ArrayList<>();
  private final BitSet shells = new BitSet();
  private final BitSet shellAtFault = new BitSet();
  private final List<Coordinate> selfContacts = new ArrayList<>();
  private final List<Coordinate> selfCrossings = new ArrayList<>();
  private final List<Coordinate> contacts = new ArrayList<>();
  private final BitSet bad = new BitSet();
  private final List<int[]> overlapping = new ArrayList<>();
  private final List<int[]> nested = new ArrayList<>();
  private final Set<Long> pairs = new HashSet<>();
  private final Map<Integer, RingLocator> shellLocators = new HashMap<>();
  private String problem;

  private PolygonValidity(Geometry geometry) {
    this.geometry = geometry;
  }

  /** Checks a polygon or multi-polygon; a small ring without holes first by {@link SmallRing}. */
  static Report check(Geometry polygonal) {
    if (polygonal instanceof Polygon p && SmallRing.isSimpleShell(p)) {
      return new Report(
          new BitSet(),
          new ArrayList<>(),
          new ArrayList<>(),
          null,
          new BitSet(),
          List.of(),
          List.of(),
          List.of());
    }
    return checkInFull(polygonal);
  }

  /** Checks a polygon or multi-polygon by the general rules, whatever its size. */
  static Report checkInFull(Geometry polygonal) {
    PolygonValidity v = new PolygonValidity(polygonal);
    v.run();
    return new Report(
        v.bad,
        v.overlapping,
        v.nested,
        v.problem,
        v.shellAtFault,
        v.selfContacts,
        v.contacts,
        v.selfCrossings);
  }

  private void run() {
    for (int i = 0; i < geometry.getNumGeometries(); i++) {
      Polygon p = (Polygon) geometry.getGeometryN(i);
      polygons.add(p);
      for (int r = 0; r <= p.getNumInteriorRing(); r++) {
        LinearRing ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
        Coordinate[] points =
            ring.isEmpty() ? null : CoordinateArrays.removeRepeatedPoints(ring.getCoordinates());
        if (points == null || points.length < 4 || !ring.isClosed()) {
          badPolygon(i, "a ring with fewer than four points");
          continue;
        }
        shells.set(rings.size(), r == 0);
        rings.add(points);
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
    for (int r = 0; r < rings.size(); r++) {
      foldBacks(r, rings.get(r));
    }
    Touches touches = new Touches(rings.size());
    RobustLineIntersector li = new RobustLineIntersector();
    SegmentPairs.visit(
        rings,
        (ra, i, rb, j) -> {
          Coordinate[] ca = rings.get(ra);
          Coordinate[] cb = rings.get(rb);
          li.computeIntersection(ca[i], ca[i + 1], cb[j], cb[j + 1]);
          if (!li.hasIntersection()) {
            return;
          }
          Coordinate at = li.getIntersection(0);
          if (ra == rb) {
            selfContacts.add(new Coordinate(at));
            if (li.isProper() || li.getIntersectionNum() == 2) {
              selfCrossings.add(new Coordinate(at));
            }
          }
          if (polygonOf.get(ra).equals(polygonOf.get(rb))) {
            contacts.add(new Coordinate(at));
          }
          if (li.isProper()) {
            fault(ra, rb, "rings cross", at);
          } else if (li.getIntersectionNum() == 2) {
            fault(ra, rb, "rings overlap along a segment", at);
          } else if (ra == rb) {
            fault(ra, rb, "a ring touches itself", at);
          } else {
            touches.add(ra, rb, at);
          }
        });
  }

  /**
   * Neighbouring segments share their vertex and meet nowhere else, unless the ring folds back
   * there: goes on along the same line in the opposite direction. Their points are collinear and
   * the directions opposed; the dot product's sign is exact for collinear points (both of its terms
   * have the sign of a difference of doubles, which rounding keeps).
   */
  private void foldBacks(int r, Coordinate[] c) {
    int n = c.length - 1;
    for (int k = 0; k < n; k++) {
      Coordinate prev = c[k == 0 ? n - 1 : k - 1];
      Coordinate at = c[k];
      Coordinate next = c[k + 1];
      double dot = (at.x - prev.x) * (next.x - at.x) + (at.y - prev.y) * (next.y - at.y);
      if (dot < 0 && Orientation.index(prev, at, next) == Orientation.COLLINEAR) {
        selfCrossings.add(new Coordinate(at));
        fault(r, r, "a ring folds back on itself", at);
      }
    }
  }

  private void fault(int ringA, int ringB, String why, Coordinate at) {
    int pa = polygonOf.get(ringA);
    int pb = polygonOf.get(ringB);
    String where = " at (" + at.x + ", " + at.y + ")";
    if (pa == pb) {
      if (shells.get(ringA) || shells.get(ringB)) {
        shellAtFault.set(pa);
      }
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
    RingLocator shell = shellLocator(index);
    Envelope[] boxes = new Envelope[holes];
    for (int h = 0; h < holes; h++) {
      LinearRing hole = p.getInteriorRingN(h);
      if (shell.locate(hole) != Location.INTERIOR) {
        badPolygon(index, "a hole lies outside its shell");
        return;
      }
      boxes[h] = hole.getEnvelopeInternal();
    }
    boolean[] found = {false};
    eachCovering(
        boxes,
        (inner, outer) -> {
          if (!found[0]
              && insideRing(
                  p.getInteriorRingN(inner), p.getInteriorRingN(outer).getCoordinates())) {
            found[0] = true;
            badPolygon(index, "a hole lies inside another");
          }
        });
  }

  /** The locator of polygon {@code index}'s shell, built once per check. */
  private RingLocator shellLocator(int index) {
    return shellLocators.computeIfAbsent(
        index, i -> RingLocator.of(polygons.get(i).getExteriorRing()));
  }

  /** No polygon of a multi-polygon lies inside another's area. */
  private void checkNestedPolygons() {
    if (polygons.size() < 2) {
      return;
    }
    Envelope[] boxes = new Envelope[polygons.size()];
    for (int i = 0; i < boxes.length; i++) {
      boxes[i] = polygons.get(i).getEnvelopeInternal();
    }
    // A polygon the check found no fault in has its holes inside its shell: its shell (already
    // built for its holes' check) answers for nearly every island, which lie in the sea around it.
    // One at fault (a mainland whose coast touches itself) is asked by shell and holes alike, each
    // hole found by its box: a locator over all its rings would walk its lakes' points again.
    AreaPoints[] located = new AreaPoints[polygons.size()];
    eachCovering(
        boxes,
        (i, j) -> {
          if (located[j] == null) {
            located[j] =
                bad.get(j)
                    ? AreaLocator.evenOdd(polygons.get(j), shellLocator(j))
                    : AreaLocator.holesInShell(polygons.get(j), shellLocator(j));
          }
          int where = located[j].locate(polygons.get(i).getExteriorRing());
          if (where == Location.INTERIOR) {
            nested.add(new int[] {i, j});
            if (problem == null) {
              problem = "a polygon lies inside another";
            }
          }
        });
  }

  /**
   * Hands on each pair {@code (inner, outer)} of boxes where the outer covers the inner (both ways
   * round when they are equal): the only pairs where one ring can lie inside the other.
   */
  private static void eachCovering(Envelope[] boxes, BoxPairs.Visitor covering) {
    BoxPairs.visit(
        boxes,
        (a, b) -> {
          if (boxes[b].covers(boxes[a])) {
            covering.pair(a, b);
          }
          if (boxes[a].covers(boxes[b])) {
            covering.pair(b, a);
          }
        });
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
