package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateArrays;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.index.strtree.STRtree;
import org.locationtech.jts.noding.IntersectionAdder;
import org.locationtech.jts.noding.MCIndexNoder;
import org.locationtech.jts.noding.NodedSegmentString;
import org.locationtech.jts.noding.SegmentString;
import org.locationtech.jts.operation.polygonize.Polygonizer;

/**
 * Rebuilds a polygon from its rings' linework: every ring is noded where it meets another (or
 * itself), and the faces of the noded lines are taken by the even-odd rule, the way GEOS's linework
 * repair does: land inside the shell and outside the holes stays, a lake inside a lake becomes land
 * again, land that touching holes cut off becomes a polygon of its own. It costs a noding and a
 * face walk, O(n log n), where an overlay-based fix of a polygon with a hundred thousand holes
 * takes minutes.
 *
 * <p>Only the rings that meet another ring or themselves go through the noding and the face walk
 * (the shell always does): in a real mainland with two hundred thousand lakes a few dozen are at
 * fault, and the polygonizer's graph of every lake's edges cost four fifths of the repair. A ring
 * that meets nothing is its own face; it goes back, by the even-odd rule, as a hole of the face
 * that holds it, or as an island where no face does (a lake inside a lake).
 */
final class RingPolygonizer {

  private RingPolygonizer() {}

  /** The polygon's faces by the even-odd rule, as a (multi-)polygon. */
  static Geometry rebuild(Polygon p) {
    return rebuild(p, null);
  }

  /**
   * {@link #rebuild(Polygon)}, where {@code contacts} holds a point of every place where two of the
   * polygon's rings meet, or one meets itself ({@link PolygonValidity.Report#contacts()}): only
   * rings whose boxes hold one are searched for meetings. Null searches every ring.
   */
  static Geometry rebuild(Polygon p, List<Coordinate> contacts) {
    PointsByX at = contacts == null ? null : new PointsByX(contacts);
    List<Coordinate[]> rings = new ArrayList<>();
    List<Integer> searched = new ArrayList<>();
    for (int r = 0; r <= p.getNumInteriorRing(); r++) {
      LineString ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
      rings.add(CoordinateArrays.removeRepeatedPoints(ring.getCoordinates()));
      if (r == 0 || at == null || at.within(ring.getEnvelopeInternal())) {
        searched.add(r);
      }
    }
    boolean[] meets = meetings(rings, searched);
    meets[0] = true;
    GeometryFactory f = p.getFactory();
    List<SegmentString> noded = new ArrayList<>();
    for (int r = 0; r < rings.size(); r++) {
      if (meets[r]) {
        noded.add(new NodedSegmentString(rings.get(r), null));
      }
    }
    new MCIndexNoder(new IntersectionAdder(new RobustLineIntersector())).computeNodes(noded);
    Polygonizer polygonizer = new Polygonizer(true);
    for (Object part : NodedSegmentString.getNodedSubstrings(noded)) {
      SegmentString s = (SegmentString) part;
      if (s.size() >= 2) {
        polygonizer.add(f.createLineString(s.getCoordinates()));
      }
    }
    Geometry faces = canonical(polygonizer.getGeometry(), f);
    List<LinearRing> alone = new ArrayList<>();
    for (int r = 1; r < rings.size(); r++) {
      if (!meets[r] && rings.get(r).length >= 4) {
        alone.add(f.createLinearRing(rings.get(r)));
      }
    }
    return alone.isEmpty() ? faces : withRingsAlone(faces, alone, f);
  }

  /**
   * The faces with each ring starting at its smallest point (least x, then least y) and each
   * polygon's holes in the order of those points. JTS's polygonizer walks its graph's edges from a
   * hash set of objects without a hash of their own, so where a ring starts, and the order of the
   * holes it gives a face, change from run to run and from thread to thread; the same rings must
   * give the same bytes every time.
   */
  private static Geometry canonical(Geometry faces, GeometryFactory f) {
    Polygon[] polygons = new Polygon[faces.getNumGeometries()];
    for (int i = 0; i < polygons.length; i++) {
      Polygon p = (Polygon) faces.getGeometryN(i);
      LinearRing[] holes = new LinearRing[p.getNumInteriorRing()];
      for (int h = 0; h < holes.length; h++) {
        holes[h] = fromSmallest(p.getInteriorRingN(h), f);
      }
      java.util.Arrays.sort(holes, (a, b) -> a.getCoordinateN(0).compareTo(b.getCoordinateN(0)));
      polygons[i] = f.createPolygon(fromSmallest(p.getExteriorRing(), f), holes);
    }
    return polygons.length == 1 ? polygons[0] : f.createMultiPolygon(polygons);
  }

  /** The ring walked the same way from its smallest point. */
  private static LinearRing fromSmallest(LinearRing ring, GeometryFactory f) {
    Coordinate[] c = ring.getCoordinates().clone();
    CoordinateArrays.scroll(c, CoordinateArrays.minCoordinate(c));
    return f.createLinearRing(c);
  }

  /**
   * Which rings meet another ring or themselves (neighbouring segments aside), searching the rings
   * {@code searched} alone: the others are known to meet nothing.
   */
  private static boolean[] meetings(List<Coordinate[]> rings, List<Integer> searched) {
    boolean[] meets = new boolean[rings.size()];
    List<Coordinate[]> some = new ArrayList<>(searched.size());
    for (int r : searched) {
      some.add(rings.get(r));
    }
    RobustLineIntersector li = new RobustLineIntersector();
    SegmentPairs.visit(
        some,
        (sa, i, sb, j) -> {
          int a = searched.get(sa);
          int b = searched.get(sb);
          if (meets[a] && meets[b]) {
            return;
          }
          Coordinate[] ca = rings.get(a);
          Coordinate[] cb = rings.get(b);
          li.computeIntersection(ca[i], ca[i + 1], cb[j], cb[j + 1]);
          if (li.hasIntersection()) {
            meets[a] = true;
            meets[b] = true;
          }
        });
    return meets;
  }

  /**
   * The faces with each ring that met nothing added as a hole of the face whose area holds it, or
   * as an island of its own where none does.
   */
  private static Geometry withRingsAlone(
      Geometry faces, List<LinearRing> alone, GeometryFactory f) {
    int n = faces.getNumGeometries();
    STRtree index = new STRtree();
    List<List<LinearRing>> holes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      index.insert(faces.getGeometryN(i).getEnvelopeInternal(), i);
      holes.add(new ArrayList<>());
    }
    RingLocator[] located = new RingLocator[n];
    List<Polygon> out = new ArrayList<>();
    for (LinearRing ring : alone) {
      Envelope e = ring.getEnvelopeInternal();
      int holder = -1;
      List<Integer> candidates = new ArrayList<>();
      for (Object o : index.query(e)) {
        candidates.add((Integer) o);
      }
      // The same answer whatever order the index gives.
      candidates.sort(null);
      for (int i : candidates) {
        Polygon face = (Polygon) faces.getGeometryN(i);
        if (!face.getEnvelopeInternal().covers(e)) {
          continue;
        }
        if (located[i] == null) {
          located[i] = RingLocator.of(face);
        }
        if (located[i].locate(ring) == Location.INTERIOR) {
          holder = i;
          break;
        }
      }
      if (holder >= 0) {
        holes.get(holder).add(ring);
      } else {
        out.add(f.createPolygon(ring));
      }
    }
    List<Polygon> polygons = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Polygon face = (Polygon) faces.getGeometryN(i);
      if (holes.get(i).isEmpty()) {
        polygons.add(face);
        continue;
      }
      List<LinearRing> all = new ArrayList<>();
      for (int h = 0; h < face.getNumInteriorRing(); h++) {
        all.add(face.getInteriorRingN(h));
      }
      all.addAll(holes.get(i));
      polygons.add(f.createPolygon(face.getExteriorRing(), all.toArray(LinearRing[]::new)));
    }
    polygons.addAll(out);
    return polygons.size() == 1
        ? polygons.get(0)
        : f.createMultiPolygon(polygons.toArray(Polygon[]::new));
  }
}
