package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;

/**
 * The small-ring shortcut clears only rings the general check finds valid, and clears the plain
 * ones it is there for.
 */
class SmallRingTest {

  private static final GeometryFactory F = new GeometryFactory();

  private static Polygon wkt(String text) throws Exception {
    return (Polygon) new WKTReader(F).read(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))",
        "POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))",
        "POLYGON ((0 0, 10 0, 10 10, 5 2, 0 10, 0 0))",
        "POLYGON ((0.1 0.1, 0.30000000000000004 0.1, 0.2 0.2, 0.1 0.1))",
      })
  void plainRingsAreCleared(String text) throws Exception {
    Polygon p = wkt(text);
    assertTrue(SmallRing.isSimpleShell(p), text);
    assertTrue(PolygonValidity.checkInFull(p).valid(), text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // A bow tie, a spike, a repeated point, a touch at a vertex, a vertex on an edge.
        "POLYGON ((0 0, 1 1, 1 0, 0 1, 0 0))",
        "POLYGON ((0 0, 2 0, 1 0, 1 1, 0 0))",
        "POLYGON ((0 0, 1 0, 1 0, 1 1, 0 0))",
        "POLYGON ((0 0, 4 0, 4 4, 2 0, 0 4, 0 0))",
        "POLYGON ((0 0, 1 0, 2 0, 2 1, 0 0))",
        // A hole, and a ring too long for the shortcut.
        "POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0), (1 1, 2 1, 2 2, 1 1))",
      })
  void anythingElseGoesToTheGeneralCheck(String text) throws Exception {
    assertFalse(SmallRing.isSimpleShell(wkt(text)), text);
  }

  @Test
  void aLongRingGoesToTheGeneralCheck() {
    Coordinate[] ring = new Coordinate[SmallRing.MAX_POINTS + 1];
    for (int i = 0; i < ring.length - 1; i++) {
      double a = 2 * Math.PI * i / (ring.length - 1);
      ring[i] = new Coordinate(Math.cos(a), Math.sin(a));
    }
    ring[ring.length - 1] = ring[0].copy();
    assertFalse(SmallRing.isSimpleShell(F.createPolygon(ring)));
  }

  @Test
  void whatItClearsTheGeneralCheckFindsValid() {
    // Random rings on a coarse grid: crossings, touches, collinear runs and spikes are common.
    Random random = new Random(7);
    int cleared = 0;
    for (int trial = 0; trial < 20_000; trial++) {
      int n = 3 + random.nextInt(8);
      Coordinate[] ring = new Coordinate[n + 1];
      for (int i = 0; i < n; i++) {
        ring[i] = new Coordinate(random.nextInt(6), random.nextInt(6));
      }
      ring[n] = ring[0].copy();
      Polygon p = F.createPolygon(ring);
      if (SmallRing.isSimpleShell(p)) {
        cleared++;
        assertTrue(PolygonValidity.checkInFull(p).valid(), p.toText());
      }
    }
    assertTrue(cleared > 1_000, "the shortcut cleared " + cleared + " rings");
  }
}
