package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.cut.GridRounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.operation.valid.IsValidOp;

/**
 * {@link RoundingCheck} says "stays valid" only for polygons that are valid and stay valid when
 * rounded (JTS's {@link IsValidOp} is the judge), and says it for the common case: rings well
 * apart, touching at shared vertices or along an axis.
 */
class RoundingCheckTest {

  private static final GeometryFactory GF = new GeometryFactory();

  /** One decimal: the grid step is 0.1. */
  private static final double SCALE = 10;

  @Test
  void ringsWellApartStayValid() throws Exception {
    assertKept(
        "MULTIPOLYGON (((0.03 0.04, 10.02 0.01, 10.04 10.03, 0.01 10.02, 0.03 0.04),"
            + " (2.03 2.02, 2.01 4.04, 4.02 4.01, 2.03 2.02)),"
            + " ((20.01 0.02, 30.03 0.01, 25.04 8.02, 20.01 0.02)))");
  }

  @Test
  void polygonsThatRoundingBringsTogetherAreNotKnown() throws Exception {
    // 0.04 apart: both round onto x = 10.
    assertNotKept(
        "MULTIPOLYGON (((0 0, 9.98 0, 9.98 10, 0 10, 0 0)), ((10.02 0, 20 0, 20 10, 10.02 10, 10.02"
            + " 0)))");
  }

  @Test
  void aSliverThatRoundingFoldsIsNotKnown() throws Exception {
    assertNotKept("POLYGON ((0 0, 10 0, 10 0.04, 5 0.03, 0 0.04, 0 0))");
  }

  @Test
  void aSpikeThatRoundingClosesIsNotKnown() throws Exception {
    // The vertices at x = 5.02 and 5.04 come onto one point: the ring runs out and back.
    assertNotKept("POLYGON ((0 0, 10 0, 10 10, 5.04 10, 5.02 3, 5.01 10, 0 10, 0 0))");
  }

  @Test
  void aHoleTouchingItsShellAtOneVertexStaysValid() throws Exception {
    assertKept(
        "POLYGON ((0.01 0.02, 10.03 0.04, 10.01 10.02, 0.04 10.03, 0.01 0.02),"
            + " (0.01 0.02, 4.02 2.03, 2.04 4.01, 0.01 0.02))");
  }

  @Test
  void aHoleTouchingItsShellAtTwoVerticesIsNotKnown() throws Exception {
    // Valid by itself in no way: the interior is cut in two; the check is not told so.
    assertNotKept("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (0 0, 5 3, 10 10, 3 5, 0 0))");
  }

  @Test
  void holesMeetingAtOnePointLeaveTheInteriorWhole() throws Exception {
    String wkt =
        "POLYGON ((0 0, 20 0, 20 20, 0 20, 0 0), (10 10, 12 5, 15 8, 10 10),"
            + " (10 10, 8 15, 5 12, 10 10), (10 10, 15 12, 12 15, 10 10))";
    assertTrue(read(wkt).isValid(), "JTS agrees the three holes leave the interior whole");
    assertKept(wkt);
  }

  @Test
  void aRingThroughOnePointTwiceIsNotKnown() throws Exception {
    // A bow-tie-like shell that passes twice through (5, 5): not valid to begin with.
    assertNotKept("POLYGON ((0 0, 5 5, 10 0, 10 10, 5 5, 0 10, 0 0))");
  }

  @Test
  void aVertexTouchingAnAxisSegmentStaysOnIt() throws Exception {
    // The hole's vertex lies inside the shell's bottom edge: the two move together.
    String wkt =
        "POLYGON ((0.03 1.04, 10.02 1.04, 10.01 10.03, 0.04 10.02, 0.03 1.04),"
            + " (4.02 1.04, 6.03 3.01, 3.04 4.02, 4.02 1.04))";
    assertTrue(read(wkt).isValid());
    assertKept(wkt);
  }

  @Test
  void aVertexTouchingASlantedSegmentIsNotKnown() throws Exception {
    // Rounding moves a slanted line and the point on it apart or across.
    assertNotKept("POLYGON ((0 0, 10 5, 10 10, 0 10, 0 0), (4 2, 5 6, 3 5, 4 2))");
  }

  @Test
  void crossingRingsAreNotKnown() throws Exception {
    assertNotKept(
        "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 15 5, 15 15, 5 15, 5 5)))");
  }

  @Test
  void whateverItKeepsIsValidRounded() {
    // Random polygons drawn near the grid's scale, so that rounding often breaks them: each one
    // the check keeps must be valid once rounded, and it must keep a good part of them.
    Random random = new Random(20261206);
    int valid = 0;
    int kept = 0;
    int broken = 0;
    for (int i = 0; i < 4000; i++) {
      Geometry g = randomPolygons(random);
      if (!g.isValid()) {
        continue;
      }
      valid++;
      broken += GridRounding.rounded(g, SCALE).isValid() ? 0 : 1;
      if (keepsValid(g)) {
        kept++;
        Geometry rounded = GridRounding.rounded(g, SCALE);
        assertTrue(
            rounded.isValid(),
            g + " kept, but rounded: " + new IsValidOp(rounded).getValidationError());
      }
    }
    assertTrue(valid > 1000, valid + " valid");
    assertTrue(
        broken > valid / 20, broken + " of " + valid + " broken by rounding: too few to tell");
    assertTrue(kept > valid / 10 && kept < valid, kept + " kept of " + valid);
  }

  /** Up to three star-shaped polygons, each with a star-shaped hole, at a scale near the grid's. */
  private static Geometry randomPolygons(Random random) {
    double size = 0.1 + random.nextDouble() * 0.9;
    int count = 1 + random.nextInt(3);
    Polygon[] polygons = new Polygon[count];
    for (int p = 0; p < count; p++) {
      double cx = random.nextDouble() * size * 2;
      double cy = random.nextDouble() * size * 2;
      LinearRing shell = star(random, cx, cy, size * 0.5, size, false);
      LinearRing[] holes =
          random.nextBoolean()
              ? new LinearRing[] {star(random, cx, cy, size * 0.1, size * 0.4, true)}
              : new LinearRing[0];
      polygons[p] = GF.createPolygon(shell, holes);
    }
    return count == 1 ? polygons[0] : GF.createMultiPolygon(polygons);
  }

  private static LinearRing star(
      Random random, double cx, double cy, double inner, double outer, boolean clockwise) {
    int n = 3 + random.nextInt(8);
    Coordinate[] c = new Coordinate[n + 1];
    for (int i = 0; i < n; i++) {
      double angle = (clockwise ? -1 : 1) * 2 * Math.PI * (i + random.nextDouble() * 0.8) / n;
      double r = inner + random.nextDouble() * (outer - inner);
      c[i] = new Coordinate(cx + r * Math.cos(angle), cy + r * Math.sin(angle));
    }
    c[n] = c[0].copy();
    return GF.createLinearRing(c);
  }

  private static void assertKept(String wkt) throws Exception {
    Geometry g = read(wkt);
    assertTrue(g.isValid(), wkt);
    assertTrue(keepsValid(g), "kept: " + wkt);
    Geometry rounded = GridRounding.rounded(g, SCALE);
    assertEquals(null, new IsValidOp(rounded).getValidationError(), "rounded " + rounded);
  }

  private static void assertNotKept(String wkt) throws Exception {
    assertFalse(keepsValid(read(wkt)), "not known: " + wkt);
  }

  private static Geometry read(String wkt) throws Exception {
    return new WKTReader(GF).read(wkt);
  }

  /** The check over the geometry's rings, each without its closing point. */
  private static boolean keepsValid(Geometry g) {
    List<double[]> rings = new ArrayList<>();
    List<Integer> polygonOf = new ArrayList<>();
    for (int p = 0; p < g.getNumGeometries(); p++) {
      Polygon polygon = (Polygon) g.getGeometryN(p);
      rings.add(open(polygon.getExteriorRing()));
      polygonOf.add(p);
      for (int h = 0; h < polygon.getNumInteriorRing(); h++) {
        rings.add(open(polygon.getInteriorRingN(h)));
        polygonOf.add(p);
      }
    }
    return RoundingCheck.keepsValid(
        rings, polygonOf.stream().mapToInt(Integer::intValue).toArray(), SCALE);
  }

  private static double[] open(LinearRing ring) {
    Coordinate[] c = ring.getCoordinates();
    double[] xy = new double[2 * (c.length - 1)];
    for (int i = 0; i + 1 < c.length; i++) {
      xy[2 * i] = c[i].x;
      xy[2 * i + 1] = c[i].y;
    }
    return xy;
  }
}
