package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.cut.CountryFixture;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;

/**
 * The shell-then-holes locator answers as the locator over every ring: where holes lie inside, and
 * by the even-odd rule where they do not.
 */
class AreaLocatorTest {

  @Test
  void locatesAsTheRingLocatorOnRealCountriesWithHoles() throws Exception {
    Random r = new Random(11);
    int compared = 0;
    for (Polygon p : CountryFixture.polygons()) {
      if (p.getNumInteriorRing() > 0 && PolygonValidity.check(p).valid()) {
        compared += compare(p, AreaLocator.of(p), r, 300);
      }
    }
    assertTrue(compared > 1_000, "points compared: " + compared);
  }

  @Test
  void locatesAsTheRingLocatorOnRealCountriesAtFault() throws Exception {
    Random r = new Random(12);
    int compared = 0;
    int atFault = 0;
    for (Polygon p : CountryFixture.polygons()) {
      if (p.getNumInteriorRing() > 0 && !PolygonValidity.check(p).valid()) {
        atFault++;
        compared += compare(p, evenOdd(p), r, 300);
      }
    }
    assertTrue(atFault > 0 && compared > 100, atFault + " polygons, " + compared + " points");
  }

  @Test
  void holesOutsideTheShellCountByTheEvenOddRule() throws Exception {
    // A hole across the shell's edge, one wholly outside, one inside another.
    Polygon p =
        (Polygon)
            new WKTReader()
                .read(
                    "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (8 4, 12 4, 12 6, 8 6, 8 4),"
                        + " (20 0, 22 0, 22 2, 20 2, 20 0), (1 1, 5 1, 5 5, 1 5, 1 1),"
                        + " (2 2, 3 2, 3 3, 2 3, 2 2))");
    AreaLocator area = evenOdd(p);
    assertEquals(Location.EXTERIOR, area.locate(new Coordinate(9, 5)));
    assertEquals(Location.INTERIOR, area.locate(new Coordinate(11, 5)));
    assertEquals(Location.INTERIOR, area.locate(new Coordinate(21, 1)));
    assertEquals(Location.BOUNDARY, area.locate(new Coordinate(12, 5)));
    assertEquals(Location.EXTERIOR, area.locate(new Coordinate(4, 4)));
    assertEquals(Location.INTERIOR, area.locate(new Coordinate(2.5, 2.5)));
    assertEquals(Location.EXTERIOR, area.locate(new Coordinate(30, 5)));
    compare(p, area, new Random(6), 3000);
    // The locator that takes the holes to lie inside the shell does not see those outside it.
    assertEquals(Location.EXTERIOR, AreaLocator.of(p).locate(new Coordinate(21, 1)));
  }

  private static AreaLocator evenOdd(Polygon p) {
    return AreaLocator.evenOdd(p, RingLocator.of(p.getExteriorRing()));
  }

  @Test
  void aPointInAHoleIsOutsideAndOneOnAHoleIsOnTheBoundary() throws Exception {
    Polygon p =
        (Polygon)
            new WKTReader()
                .read(
                    "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0),"
                        + " (1 1, 3 1, 3 3, 1 3, 1 1), (6 1, 8 1, 8 3, 6 1))");
    AreaLocator area = AreaLocator.of(p);
    assertEquals(Location.EXTERIOR, area.locate(new Coordinate(2, 2)));
    assertEquals(Location.BOUNDARY, area.locate(new Coordinate(3, 2)));
    assertEquals(Location.INTERIOR, area.locate(new Coordinate(5, 5)));
    assertEquals(Location.EXTERIOR, area.locate(new Coordinate(11, 5)));
    compare(p, area, new Random(5), 2000);
  }

  /** Random points in and around the box and every hole vertex: the same answer both ways. */
  private static int compare(Polygon p, AreaLocator ours, Random r, int randomPoints) {
    RingLocator all = RingLocator.of(p);
    Envelope e = new Envelope(p.getEnvelopeInternal());
    for (int h = 0; h < p.getNumInteriorRing(); h++) {
      e.expandToInclude(p.getInteriorRingN(h).getEnvelopeInternal());
    }
    int n = 0;
    for (int k = 0; k < randomPoints; k++, n++) {
      Coordinate c = RingLocatorTest.around(e, r);
      assertEquals(all.locate(c), ours.locate(c), c.toString());
    }
    for (int h = 0; h < p.getNumInteriorRing(); h++, n++) {
      Coordinate c = p.getInteriorRingN(h).getCoordinateN(0);
      assertEquals(all.locate(c), ours.locate(c), c.toString());
    }
    return n;
  }
}
