package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

/** The cheap rungs of the repair ladder, each on the fault it exists for. */
class RepairRungsTest {

  private static Geometry wkt(String text) throws ParseException {
    return new WKTReader().read(text);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // Out to (2 7) and back only to (2 5): not the A, B, A of a rounded sliver.
        "spike going back part of the way | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 7, 2 5, 0 4, 0 0))"
            + " | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 5, 0 4, 0 0))",
        "spike going back past its start | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 7, 2 3, 0 4, 0 0))"
            + " | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 3, 0 4, 0 0))",
        "spike at the ring's start | POLYGON ((2 7, 2 5, 0 4, 0 0, 4 0, 4 4, 2 4, 2 7))"
            + " | POLYGON ((2 5, 0 4, 0 0, 4 0, 4 4, 2 4, 2 5))",
        "spikes on spikes | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 7, 2 6, 3 6, 2 6, 2 5, 0 4, 0 0))"
            + " | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 5, 0 4, 0 0))",
        "A, B, A | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 7, 2 4, 0 4, 0 0))"
            + " | POLYGON ((0 0, 4 0, 4 4, 2 4, 0 4, 0 0))",
      })
  void turningStraightBackIsCleanedAway(String name, String input, String expected)
      throws Exception {
    GeometryRepair.Repaired r = GeometryRepair.floating().repair(wkt(input));
    assertEquals(GeometryRepair.Rung.CLEANED, r.rung(), name);
    assertTrue(r.geometry().equalsExact(wkt(expected)), r.geometry().toText());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void holesMeetingInACycleAreRepairedAlikeInAnyOrder(int rotation) throws Exception {
    Geometry first = repairedWithHolesRotated(0);
    Geometry rotated = repairedWithHolesRotated(rotation);
    assertTrue(PolygonValidity.check(rotated).valid(), PolygonValidity.check(rotated).problem());
    assertTrue(rotated.equalsTopo(first), rotated + " against " + first);
    // By the even-odd rule of the rebuild, the stretch where A and B overlap is land again, and it
    // joins the land that C and the tops of A and B enclose: 400 less A, B and C alone.
    assertEquals(400 - 24 - 24 - 12, rotated.getArea(), 1e-9);
  }

  private static Geometry repairedWithHolesRotated(int rotation) throws Exception {
    String[] holes = {
      "(2 2, 8 2, 8 8, 2 8, 2 2)", // A
      "(6 2, 12 2, 12 8, 6 8, 6 2)", // B, overlapping A
      "(4 8, 7 14, 10 8, 7 10, 4 8)" // C, touching A at (4 8) and B at (10 8)
    };
    StringBuilder text = new StringBuilder("POLYGON ((0 0, 20 0, 20 20, 0 20, 0 0)");
    for (int k = 0; k < holes.length; k++) {
      text.append(", ").append(holes[(k + rotation) % holes.length]);
    }
    GeometryRepair.Repaired r = GeometryRepair.floating().repair(wkt(text.append(")").toString()));
    assertTrue(r.rung().repaired(), r.rung().toString());
    return r.geometry();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void ringsThatMeetNothingKeepTheirPlaceAfterARebuild(boolean holesFirst) throws Exception {
    String inLand = "(6 6, 7 6, 7 7, 6 6)";
    String inTheNotch = "(1 3, 2 3, 2 4, 1 3)";
    String notch = "(0 2, 3 2, 3 5, 0 5, 0 2)"; // shares the shell's edge from (0 2) to (0 5)
    String holes =
        holesFirst
            ? inLand + ", " + inTheNotch + ", " + notch
            : notch + ", " + inLand + ", " + inTheNotch;
    Polygon p = (Polygon) wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), " + holes + ")");
    Geometry rebuilt = RingPolygonizer.rebuild(p);
    assertTrue(PolygonValidity.check(rebuilt).valid(), PolygonValidity.check(rebuilt).problem());
    // Land: the square less the notch and the lake; the lake in the notch is land again.
    assertEquals(100 - 9 - 0.5 + 0.5, rebuilt.getArea(), 1e-9);
    assertEquals(2, rebuilt.getNumGeometries(), rebuilt.toText());
    Polygon main = (Polygon) rebuilt.getGeometryN(0);
    assertEquals(1, main.getNumInteriorRing(), main.toText());
    assertTrue(rebuilt.getGeometryN(1).equalsNorm(wkt("POLYGON (" + inTheNotch + ")")));
  }

  /**
   * JTS's polygonizer walks its edges from a hash set of objects hashed by identity, which differs
   * from one call (and thread, and run) to the next; the rebuild must give the same bytes anyway.
   */
  @org.junit.jupiter.api.Test
  void aRebuildGivesTheSameBytesEveryTime() throws Exception {
    // A shell crossing itself twice, with holes that cross it and each other.
    String text =
        "POLYGON ((0 0, 30 0, 30 30, 10 30, 10 -5, 20 -5, 20 35, 0 35, 0 0),"
            + " (2 2, 8 2, 8 8, 2 8, 2 2), (5 5, 12 5, 12 12, 5 12, 5 5),"
            + " (22 22, 28 22, 28 28, 22 28, 22 22), (25 20, 29 20, 29 25, 25 25, 25 20))";
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int run = 0; run < 20; run++) {
      Geometry rebuilt = RingPolygonizer.rebuild((Polygon) wkt(text));
      seen.add(
          java.util.HexFormat.of()
              .formatHex(new org.locationtech.jts.io.WKBWriter(2).write(rebuilt)));
    }
    assertEquals(1, seen.size(), "different bytes from the same polygon");
  }
}
