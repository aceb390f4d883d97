package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Polygon;
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
 */
final class RingPolygonizer {

  private RingPolygonizer() {}

  /** The polygon's faces by the even-odd rule, as a (multi-)polygon. */
  static Geometry rebuild(Polygon p) {
    List<SegmentString> rings = new ArrayList<>();
    for (int r = 0; r <= p.getNumInteriorRing(); r++) {
      LineString ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
      rings.add(new NodedSegmentString(ring.getCoordinates(), null));
    }
    new MCIndexNoder(new IntersectionAdder(new RobustLineIntersector())).computeNodes(rings);
    GeometryFactory f = p.getFactory();
    Polygonizer polygonizer = new Polygonizer(true);
    for (Object part : NodedSegmentString.getNodedSubstrings(rings)) {
      SegmentString s = (SegmentString) part;
      if (s.size() >= 2) {
        polygonizer.add(f.createLineString(s.getCoordinates()));
      }
    }
    return polygonizer.getGeometry();
  }
}
