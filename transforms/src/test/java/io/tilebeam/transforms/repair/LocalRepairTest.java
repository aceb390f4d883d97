package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;

/**
 * The repair steps that look only where the validity check saw rings meet give what looking
 * everywhere gives.
 */
class LocalRepairTest {

  private static Geometry wkt(String text) throws ParseException {
    return new WKTReader().read(text);
  }

  /**
   * A lake across the coast makes the polygon a rebuild; two lakes touching twice cut off land
   * between them, which the rebuild finds only if it nodes both (they meet nothing else); a far
   * lake meets nothing.
   */
  @Test
  void aRebuildFromTheCheckedContactsIsTheFullRebuild() throws Exception {
    Polygon p =
        (Polygon)
            wkt(
                "POLYGON ((0 0, 40 0, 40 40, 0 40, 0 0),"
                    + " (35 10, 45 10, 45 15, 35 15, 35 10),"
                    + " (5 5, 15 5, 15 15, 5 15, 5 5),"
                    + " (15 5, 25 10, 15 15, 20 10, 15 5),"
                    + " (30 30, 35 30, 35 35, 30 35, 30 30))");
    PolygonValidity.Report report = PolygonValidity.check(p);
    Geometry everywhere = RingPolygonizer.rebuild(p);
    Geometry local = RingPolygonizer.rebuild(p, report.contacts());
    assertTrue(PolygonValidity.check(local).valid(), PolygonValidity.check(local).problem());
    assertTrue(local.equalsNorm(everywhere), local + " against " + everywhere);
    // The land between the two touching lakes is an island of its own; so, by the even-odd rule,
    // is the part of the crossing lake beyond the coast.
    assertEquals(3, local.getNumGeometries(), local.toText());
  }

  /** Only rings whose boxes hold a point where a ring met itself are split. */
  @Test
  void splittingAtTheCheckedContactsIsSplittingEverywhere() throws Exception {
    Geometry g =
        wkt(
            "MULTIPOLYGON (((0 0, 10 0, 10 10, 5 10, 7 7, 3 7, 5 10, 0 10, 0 0),"
                + " (1 1, 4 1, 4 4, 2.5 1, 1 4, 1 1)),"
                + " ((20 0, 30 0, 30 10, 20 10, 20 0), (22 2, 28 2, 28 8, 22 8, 22 2)))");
    PolygonValidity.Report report = PolygonValidity.check(g);
    assertTrue(
        report.selfContacts().contains(new org.locationtech.jts.geom.Coordinate(5, 10))
            && report.selfContacts().contains(new org.locationtech.jts.geom.Coordinate(2.5, 1)),
        report.selfContacts().toString());
    Geometry everywhere = SelfTouchSplitter.split(g);
    Geometry local = SelfTouchSplitter.split(g, report);
    assertTrue(PolygonValidity.check(local).valid(), PolygonValidity.check(local).problem());
    assertTrue(local.equalsNorm(everywhere), local + " against " + everywhere);
    // The second polygon is valid and left as it is.
    assertSame(g.getGeometryN(1), local.getGeometryN(local.getNumGeometries() - 1));
  }

  /**
   * A ring that touches itself only at its own vertices gets them put into the segments they lie on
   * from the check's contacts; one that also crosses itself is noded; both as noding every ring
   * does, exactly.
   */
  @Test
  void splittingByTheReportIsSplittingEverywhere() throws Exception {
    Geometry g =
        wkt(
            "MULTIPOLYGON (((0 0, 10 0, 10 10, 5 10, 7 7, 3 7, 5 10, 0 10, 0 0),"
                + " (1 1, 4 1, 4 4, 2.5 1, 1 4, 1 1), (6 1, 9 1, 9 4, 7.5 1, 6 4, 6 1)),"
                + " ((20 0, 30 0, 30 10, 20 10, 20 0), (22 2, 28 2, 22 8, 28 8, 22 2)))");
    PolygonValidity.Report report = PolygonValidity.check(g);
    assertTrue(
        report.selfCrossings().contains(new org.locationtech.jts.geom.Coordinate(25, 5))
            && !report.selfCrossings().contains(new org.locationtech.jts.geom.Coordinate(2.5, 1)),
        report.selfCrossings().toString());
    Geometry everywhere = SelfTouchSplitter.split(g);
    Geometry byReport = SelfTouchSplitter.split(g, report);
    assertTrue(byReport.equalsExact(everywhere), byReport + " against " + everywhere);
    // The shell's inverted loop is a lake; the lakes touching themselves inside a segment were
    // split into two each.
    assertEquals(5, ((Polygon) byReport.getGeometryN(0)).getNumInteriorRing(), byReport.toText());
  }

  @Test
  void splittingRealCountriesByTheReportIsSplittingEverywhere() throws Exception {
    int split = 0;
    for (Polygon p : io.tilebeam.transforms.cut.CountryFixture.polygons()) {
      PolygonValidity.Report report = PolygonValidity.check(p);
      if (report.valid()) {
        continue;
      }
      Geometry everywhere = SelfTouchSplitter.split(p);
      Geometry byReport = SelfTouchSplitter.split(p, report);
      assertTrue(byReport.equalsExact(everywhere), "a polygon at " + p.getCoordinate());
      split += everywhere == p ? 0 : 1;
    }
    assertTrue(split > 0, "no country polygon was split");
  }

  /**
   * An island drawn across the coast of a polygon with lakes: the union leaves out of the overlay
   * the lakes the island's box does not reach and puts them back; the result is the overlay of
   * everything.
   */
  @Test
  void anIslandAcrossTheCoastKeepsTheLakesItDoesNotReach() throws Exception {
    Geometry g =
        wkt(
            "MULTIPOLYGON (((0 0, 100 0, 100 100, 0 100, 0 0),"
                + " (70 70, 80 70, 80 80, 70 80, 70 70), (10 10, 20 10, 20 20, 10 20, 10 10),"
                + " (40 40, 50 40, 45 50, 40 40)),"
                + " ((-5 12, 25 12, 25 14, -5 14, -5 12)))");
    PolygonValidity.Report report = PolygonValidity.check(g);
    assertEquals(1, report.overlapping().size());
    ComponentFixer.Fixed fixed = new ComponentFixer(new PrecisionModel()).fix(g, report);
    assertTrue(fixed.report().valid(), fixed.report().problem());
    Geometry union = OverlayNGRobust.union(g);
    assertTrue(fixed.geometry().equalsTopo(union), fixed.geometry() + " against " + union);
    // The far lakes, and the near one cut in two by the island.
    Polygon land = (Polygon) fixed.geometry().getGeometryN(0);
    assertEquals(4, land.getNumInteriorRing(), land.toText());
  }

  @Test
  void noContactsNoSplitting() throws Exception {
    Geometry g = wkt("POLYGON ((0 0, 10 0, 10 10, 5 10, 7 7, 3 7, 5 10, 0 10, 0 0))");
    PolygonValidity.Report noContacts =
        new PolygonValidity.Report(
            new java.util.BitSet(),
            List.of(),
            List.of(),
            null,
            new java.util.BitSet(),
            List.of(),
            List.of(),
            List.of());
    assertSame(g, SelfTouchSplitter.split(g, noContacts));
  }
}
