package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;
import org.locationtech.jts.operation.valid.IsValidOp;

/**
 * The grid union: valid by JTS's own check, every coordinate an integer, the area the rings wind at
 * least once (overlaps merged, holes cut, reversed lobes of a ring across itself dropped), and
 * rings that touch at a point written as valid rings.
 */
class GridUnionTest {

  private static final GeometryFactory F = new GeometryFactory();

  private static Geometry union(String wkt) throws Exception {
    return checked(GridUnion.union(new WKTReader().read(wkt)));
  }

  private static Geometry checked(Geometry g) {
    assertTrue(new IsValidOp(g).isValid(), () -> g + ": " + new IsValidOp(g).getValidationError());
    for (Coordinate c : g.getCoordinates()) {
      assertEquals(Math.rint(c.x), c.x, 0, () -> "off the grid: " + c);
      assertEquals(Math.rint(c.y), c.y, 0, () -> "off the grid: " + c);
    }
    return g;
  }

  @Test
  void overlappingIslandsBecomeOne() throws Exception {
    Geometry g =
        union("MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 15 5, 15 15, 5 15, 5 5)))");
    assertEquals(1, g.getNumGeometries());
    assertEquals(175, g.getArea(), 0);
  }

  @Test
  void islandsTouchingAtACornerStayTwo() throws Exception {
    Geometry g = union("MULTIPOLYGON (((0 0, 2 0, 2 2, 0 2, 0 0)), ((2 2, 4 2, 4 4, 2 4, 2 2)))");
    assertEquals(2, g.getNumGeometries());
    assertEquals(8, g.getArea(), 0);
  }

  @Test
  void ringsThatMeetAreSaidToMeet() throws Exception {
    WKTReader wkt = new WKTReader();
    assertTrue(
        GridUnion.unite(
                wkt.read("MULTIPOLYGON (((0 0, 2 0, 2 2, 0 2, 0 0)), ((2 2, 4 2, 4 4, 2 4, 2 2)))"))
            .ringsMeet());
    assertTrue(
        GridUnion.unite(wkt.read("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0, 2 6, 6 6, 6 2, 0 0))"))
            .ringsMeet());
    assertFalse(
        GridUnion.unite(
                wkt.read(
                    "MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2)),"
                        + " ((5 5, 15 5, 15 15, 5 15, 5 5)))"))
            .ringsMeet());
  }

  /** Rings of one polygon joined through the points where they meet must form no cycle. */
  @Test
  void touchesInACycleAreFound() {
    // A shell and a hole touching at two points.
    assertTrue(GridUnion.touchCycle(List.of(new int[] {1, 2}, new int[] {2, 1})));
    // Three holes each touching the next, the last the first.
    assertTrue(GridUnion.touchCycle(List.of(new int[] {1, 3}, new int[] {1, 2}, new int[] {2, 3})));
    // Three rings meeting at one point, and a chain of touching holes: no cycle.
    assertFalse(GridUnion.touchCycle(List.of(new int[] {1}, new int[] {1}, new int[] {1})));
    assertFalse(
        GridUnion.touchCycle(
            List.of(new int[] {1}, new int[] {1, 2}, new int[] {2, 3}, new int[] {3})));
  }

  @Test
  void aHoleIsCutAndOneOutsideItsShellCutsNothing() throws Exception {
    Geometry g =
        union(
            "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2),"
                + " (20 20, 20 22, 22 22, 22 20, 20 20))");
    assertEquals(1, g.getNumGeometries());
    assertEquals(1, ((Polygon) g.getGeometryN(0)).getNumInteriorRing());
    assertEquals(96, g.getArea(), 0);
  }

  @Test
  void aHoleThatCrossesItsShellCutsOnlyInside() throws Exception {
    Geometry g = union("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (8 4, 8 6, 14 6, 14 4, 8 4))");
    assertEquals(1, g.getNumGeometries());
    assertEquals(96, g.getArea(), 0);
  }

  @Test
  void aRingThatTouchesItselfSplitsIntoShellAndHole() throws Exception {
    // The ring goes round the square and, from the corner (0 0), into the square and back: the
    // inner loop is a hole touching the shell at one point.
    Geometry g = union("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0, 2 6, 6 6, 6 2, 0 0))");
    assertEquals(1, g.getNumGeometries());
    assertEquals(1, ((Polygon) g.getGeometryN(0)).getNumInteriorRing());
    assertEquals(100 - 24, g.getArea(), 0);
  }

  @Test
  void aHoleTouchingTheShellTwiceSplitsTheArea() throws Exception {
    Geometry g = union("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (0 5, 5 8, 10 5, 5 2, 0 5))");
    assertEquals(2, g.getNumGeometries());
    assertEquals(70, g.getArea(), 0);
  }

  @Test
  void theReversedLobeOfABowTieIsDropped() throws Exception {
    // The big lobe winds once; the small one, walked the other way, winds -1.
    Geometry g = union("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))");
    assertEquals(1, g.getNumGeometries());
    assertTrue(g.getArea() > 0 && g.getArea() < 100);
    Geometry bigger = union("POLYGON ((0 0, 12 12, 12 -2, 0 10, 0 0))");
    assertEquals(1, bigger.getNumGeometries());
  }

  @Test
  void anIslandInALakeIsKept() throws Exception {
    Geometry g =
        union(
            "MULTIPOLYGON (((0 0, 20 0, 20 20, 0 20, 0 0), (4 4, 4 16, 16 16, 16 4, 4 4)),"
                + " ((8 8, 12 8, 12 12, 8 12, 8 8)))");
    assertEquals(2, g.getNumGeometries());
    assertEquals(400 - 144 + 16, g.getArea(), 0);
  }

  /**
   * Lakes in islands in lakes, beside enough islands with lakes of their own that the shells' index
   * is a tree of several levels: each hole goes into the smallest shell around it, whatever order
   * the index offers the shells in.
   */
  @Test
  void eachHoleGoesIntoTheNearestShellAroundIt() throws Exception {
    StringBuilder wkt = new StringBuilder("MULTIPOLYGON (");
    // Concentric: island 0-100 with lake 10-90, island 20-80 with lake 30-70, island 40-60.
    wkt.append(square(0, 100)).append(", ").append(square(20, 80)).append(", ");
    wkt.append("((40 40, 60 40, 60 60, 40 60, 40 40))");
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 6; j++) {
        int x = 200 + 20 * i;
        int y = 20 * j;
        wkt.append(
            String.format(
                ", ((%d %d, %d %d, %d %d, %d %d, %d %d),",
                x, y, x + 8, y, x + 8, y + 8, x, y + 8, x, y));
        wkt.append(
            String.format(
                " (%d %d, %d %d, %d %d, %d %d, %d %d))",
                x + 2, y + 2, x + 2, y + 6, x + 6, y + 6, x + 6, y + 2, x + 2, y + 2));
      }
    }
    Geometry g = union(wkt.append(")").toString());
    assertEquals(3 + 36, g.getNumGeometries());
    Map<Double, Integer> holesByShellArea = new TreeMap<>();
    for (int i = 0; i < g.getNumGeometries(); i++) {
      Polygon p = (Polygon) g.getGeometryN(i);
      holesByShellArea.merge(
          F.createPolygon(p.getExteriorRing().getCoordinates()).getArea(),
          p.getNumInteriorRing(),
          Integer::sum);
    }
    // 36 islands of 64 with a lake each; the inner island (400) none; 3,600 and 10,000 one each.
    assertEquals(Map.of(64.0, 36, 400.0, 0, 3600.0, 1, 10000.0, 1), holesByShellArea);
    assertEquals(10000 - 6400 + 3600 - 1600 + 400 + 36 * (64 - 16), g.getArea(), 0);
  }

  /** A square island from {@code lo} to {@code hi} with a lake 10 units inside its shore. */
  private static String square(int lo, int hi) {
    int a = lo + 10;
    int b = hi - 10;
    return String.format(
        "((%d %d, %d %d, %d %d, %d %d, %d %d), (%d %d, %d %d, %d %d, %d %d, %d %d))",
        lo, lo, hi, lo, hi, hi, lo, hi, lo, lo, a, a, a, b, b, b, b, a, a, a);
  }

  @Test
  void aShellAndAHoleAlongTheSameGridPointsCancel() throws Exception {
    // Rounding collapses a lake onto its shell: nothing is left of either.
    Geometry g =
        union("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (0.2 0.1, 0.1 10, 10 10, 10 0.2, 0.2 0.1))");
    assertTrue(g.isEmpty(), () -> g.toText());
  }

  @Test
  void offGridCoordinatesAreSnapRounded() throws Exception {
    Geometry g =
        union(
            "MULTIPOLYGON (((0.2 0.3, 9.8 0.1, 9.6 10.2, 0.4 9.9, 0.2 0.3)),"
                + " ((9.7 5.2, 15.1 4.8, 15.3 9.9, 9.6 10.3, 9.7 5.2)))");
    assertEquals(1, g.getNumGeometries());
  }

  /**
   * Random overlapping quadrilaterals, rounded as a tile's renderer would leave them: always valid,
   * and the same area as JTS's union (each of the inputs is a valid polygon, so the area they wind
   * at least once is their union), up to the snap-rounding of what the union's rings cross.
   */
  @Test
  void randomOverlapsAreTheirUnion() {
    Random random = new Random(35);
    for (int run = 0; run < 200; run++) {
      int n = 2 + random.nextInt(12);
      Polygon[] polygons = new Polygon[n];
      for (int i = 0; i < n; i++) {
        double cx = random.nextInt(200);
        double cy = random.nextInt(200);
        double r = 5 + random.nextInt(40);
        Coordinate[] c = new Coordinate[5];
        for (int k = 0; k < 4; k++) {
          double a = Math.PI / 2 * k + random.nextDouble();
          c[k] = new Coordinate(Math.rint(cx + r * Math.cos(a)), Math.rint(cy + r * Math.sin(a)));
        }
        c[4] = c[0].copy();
        LinearRing ring = F.createLinearRing(c);
        polygons[i] = F.createPolygon(ring);
      }
      Geometry input = F.createMultiPolygon(polygons);
      Geometry g = checked(GridUnion.union(input));
      // Checked valid above: the union must not think otherwise (it would send the piece on to
      // the slower repair).
      assertTrue(GridUnion.unite(input).valid(), () -> "run " + input);
      double expected = OverlayNGRobust.union(input).getArea();
      double perimeter = input.getLength();
      // Snapping moves each crossing by at most half a unit diagonally.
      assertEquals(expected, g.getArea(), perimeter, () -> "run " + input);
    }
  }

  /**
   * Random thin, crossing quadrilaterals off the grid (simplification's slivers): always valid, and
   * the area of JTS's union up to the snap-rounding of what the union's rings cross.
   */
  @Test
  void randomOffGridSliversGiveAValidUnion() {
    Random random = new Random(36);
    for (int run = 0; run < 200; run++) {
      int n = 2 + random.nextInt(20);
      Polygon[] polygons = new Polygon[n];
      for (int i = 0; i < n; i++) {
        double cx = random.nextDouble() * 60;
        double cy = random.nextDouble() * 60;
        double r = 0.5 + random.nextDouble() * 20;
        double a0 = random.nextDouble() * Math.PI;
        // Two long sides a fraction of a unit apart.
        double w = 0.05 + random.nextDouble();
        Coordinate[] c = new Coordinate[5];
        double dx = r * Math.cos(a0);
        double dy = r * Math.sin(a0);
        double nx = -w * Math.sin(a0);
        double ny = w * Math.cos(a0);
        c[0] = new Coordinate(cx - dx, cy - dy);
        c[1] = new Coordinate(cx + dx, cy + dy);
        c[2] = new Coordinate(cx + dx + nx, cy + dy + ny);
        c[3] = new Coordinate(cx - dx + nx, cy - dy + ny);
        c[4] = c[0].copy();
        polygons[i] = F.createPolygon(F.createLinearRing(c));
      }
      Geometry input = F.createMultiPolygon(polygons);
      Geometry g = checked(GridUnion.union(input));
      double expected = OverlayNGRobust.union(input).getArea();
      assertEquals(expected, g.getArea(), input.getLength(), () -> "run " + input);
    }
  }

  /**
   * The same rings give the same bytes, call after call (no order taken from a hash of objects).
   */
  @Test
  void theSameRingsGiveTheSameBytes() throws Exception {
    Geometry input =
        new WKTReader()
            .read(
                "MULTIPOLYGON (((0.2 0.3, 9.8 0.1, 9.6 10.2, 0.4 9.9, 0.2 0.3),"
                    + " (2 2, 2 4, 4 4, 4 2, 2 2)), ((9.7 5.2, 15.1 4.8, 15.3 9.9, 9.6 10.3, 9.7 5.2)),"
                    + " ((3 3, 12 3, 12 3.4, 3 3.3, 3 3)))");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int run = 0; run < 10; run++) {
      seen.add(GridUnion.union(input).toText());
    }
    assertEquals(1, seen.size(), seen::toString);
  }

  /**
   * A thread's unions reuse its working arrays, longer than the next piece needs and holding what
   * the last left: each gives the bytes it gives on a thread of its own.
   */
  @Test
  void unionsOneAfterAnotherOnAThreadGiveWhatEachGivesAlone() throws Exception {
    Random random = new Random(41);
    List<Geometry> inputs = new java.util.ArrayList<>();
    for (int run = 0; run < 24; run++) {
      // Large and small pieces in turn: a star of many points, then a few overlapping boxes.
      int points = run % 3 == 0 ? 2_000 + random.nextInt(8_000) : 4 + random.nextInt(40);
      Coordinate[] star = new Coordinate[points + 1];
      for (int i = 0; i < points; i++) {
        double angle = 2 * Math.PI * i / points;
        double radius = 300 + random.nextInt(700);
        star[i] = new Coordinate(2048 + radius * Math.cos(angle), 2048 + radius * Math.sin(angle));
      }
      star[points] = star[0].copy();
      Polygon hole =
          (Polygon)
              new WKTReader()
                  .read("POLYGON ((2000 2000, 2000 2100, 2100 2100, 2100 2000, 2000 2000))");
      inputs.add(
          F.createMultiPolygon(
              new Polygon[] {
                F.createPolygon(
                    F.createLinearRing(star), new LinearRing[] {hole.getExteriorRing()}),
                (Polygon) new WKTReader().read("POLYGON " + square(1900 + run, 2300 - run))
              }));
    }
    List<String> alone = new java.util.ArrayList<>();
    for (Geometry input : inputs) {
      String[] text = new String[1];
      Thread t = new Thread(() -> text[0] = GridUnion.union(input).toText());
      t.start();
      t.join();
      alone.add(text[0]);
    }
    for (int i = 0; i < inputs.size(); i++) {
      assertEquals(alone.get(i), checked(GridUnion.union(inputs.get(i))).toText(), "piece " + i);
    }
  }

  @Test
  void signedAreaIsJtssToTheBit() {
    Random random = new Random(23);
    for (int run = 0; run < 2_000; run++) {
      int n = 3 + random.nextInt(30);
      double[] xy = new double[2 * n + 2];
      for (int i = 0; i < n; i++) {
        xy[2 * i] = 4096 * random.nextDouble() - 64;
        xy[2 * i + 1] = run % 2 == 0 ? random.nextInt(4) : 4096 * random.nextDouble();
      }
      xy[2 * n] = xy[0];
      xy[2 * n + 1] = xy[1];
      org.locationtech.jts.geom.CoordinateSequence ring =
          new org.locationtech.jts.geom.impl.PackedCoordinateSequence.Double(xy, 2, 0);
      assertEquals(
          Double.doubleToLongBits(org.locationtech.jts.algorithm.Area.ofRingSigned(ring)),
          Double.doubleToLongBits(GridUnion.signedArea(ring)),
          "run " + run);
    }
  }
}
