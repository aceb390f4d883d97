package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.transforms.cut.CountryFixture;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;

/** The banded locator answers as JTS's indexed locator does, on real and on awkward polygons. */
class RingLocatorTest {

  @Test
  void locatesAsJtsOnRealCountries() throws Exception {
    Random r = new Random(7);
    int compared = 0;
    for (Polygon p : CountryFixture.polygons()) {
      compared += compare(p, r, 200);
    }
    assertEquals(true, compared > 10_000, "points compared: " + compared);
  }

  @Test
  void locatesAsJtsOnBoundariesHolesAndHorizontalEdges() throws Exception {
    Polygon p =
        (Polygon)
            new WKTReader()
                .read(
                    "POLYGON ((0 0, 10 0, 10 10, 5 10, 5 5, 4 10, 0 10, 0 0),"
                        + " (1 1, 3 1, 3 3, 1 3, 1 1), (6 1, 8 1, 8 3, 6 1))");
    compare(p, new Random(3), 2000);
    RingLocator flat =
        RingLocator.of((Polygon) new WKTReader().read("POLYGON ((0 0, 10 0, 5 0, 0 0))"));
    assertEquals(1, flat.locate(new Coordinate(5, 0)), "on the boundary");
    assertEquals(2, flat.locate(new Coordinate(5, 1)), "outside");
  }

  /** Random points in the box, every vertex, and midpoints of edges: the same answer as JTS. */
  private static int compare(Polygon p, Random r, int randomPoints) {
    IndexedPointInAreaLocator jts = new IndexedPointInAreaLocator(p);
    RingLocator ours = RingLocator.of(p);
    Envelope e = p.getEnvelopeInternal();
    int n = 0;
    for (int k = 0; k < randomPoints; k++, n++) {
      Coordinate c = around(e, r);
      assertEquals(jts.locate(c), ours.locate(c), c.toString());
    }
    Coordinate[] all = p.getCoordinates();
    for (int k = 0; k + 1 < all.length; k += Math.max(1, all.length / 200), n += 2) {
      assertEquals(jts.locate(all[k]), ours.locate(all[k]), all[k].toString());
      Coordinate mid = new Coordinate((all[k].x + all[k + 1].x) / 2, (all[k].y + all[k + 1].y) / 2);
      assertEquals(jts.locate(mid), ours.locate(mid), mid.toString());
    }
    return n;
  }

  /** A random point in the box grown by one unit on every side. */
  static Coordinate around(Envelope e, Random r) {
    return new Coordinate(
        e.getMinX() - 1 + r.nextDouble() * (e.getWidth() + 2),
        e.getMinY() - 1 + r.nextDouble() * (e.getHeight() + 2));
  }
}
