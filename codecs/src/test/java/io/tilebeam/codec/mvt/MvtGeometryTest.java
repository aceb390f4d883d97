package io.tilebeam.codec.mvt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.io.WKTReader;

/**
 * The examples of the Mapbox Vector Tile 2.1 specification (§4.3.5), on a tile whose map units
 * equal its grid units (y flipped: the grid's y points down).
 */
class MvtGeometryTest {

  private static final Envelope TILE = new Envelope(0, 4096, 0, 4096);

  private static int[] commands(String wkt, int expectedType) throws Exception {
    MvtGeometry.Commands c = MvtGeometry.encode(new WKTReader().read(wkt), TILE, 4096);
    assertEquals(expectedType, c.type());
    return Arrays.copyOf(c.values(), c.length());
  }

  /** Map y for a grid y. */
  private static int y(int gridY) {
    return 4096 - gridY;
  }

  @Test
  void aPointIsOneMoveTo() throws Exception {
    assertArrayEquals(
        new int[] {9, 50, 34}, commands("POINT (25 " + y(17) + ")", MvtGeometry.POINT));
  }

  @Test
  void aLineIsAMoveToAndLineTos() throws Exception {
    assertArrayEquals(
        new int[] {9, 4, 4, 18, 0, 16, 16, 0},
        commands(
            "LINESTRING (2 " + y(2) + ", 2 " + y(10) + ", 10 " + y(10) + ")",
            MvtGeometry.LINESTRING));
  }

  @Test
  void aPolygonsExteriorRingHasPositiveAreaOnTheGrid() throws Exception {
    int[] spec = {9, 6, 12, 18, 10, 12, 24, 44, 15};
    String ring = "3 " + y(6) + ", 8 " + y(12) + ", 20 " + y(34) + ", 3 " + y(6);
    assertArrayEquals(spec, commands("POLYGON ((" + ring + "))", MvtGeometry.POLYGON));
    // The same ring given the other way round is turned to the orientation the spec requires.
    String reversed = "3 " + y(6) + ", 20 " + y(34) + ", 8 " + y(12) + ", 3 " + y(6);
    assertArrayEquals(spec, commands("POLYGON ((" + reversed + "))", MvtGeometry.POLYGON));
  }

  @Test
  void holesHaveNegativeAreaAndTheCursorCarriesOver() throws Exception {
    int[] c =
        commands(
            "POLYGON ((0 0, 100 0, 100 100, 0 100, 0 0), (20 20, 20 80, 80 80, 80 20, 20 20))",
            MvtGeometry.POLYGON);
    // Exterior: MoveTo(1), LineTo(3), ClosePath; hole: the same, its MoveTo relative to the cursor.
    assertEquals(9, c[0]);
    assertEquals(26, c[3]);
    assertEquals(15, c[10]);
    assertEquals(9, c[11]);
    assertEquals(26, c[14]);
    assertEquals(15, c[21]);
    assertEquals(22, c.length);
  }

  @Test
  void aPolygonSmallerThanAGridUnitHasNothingToWrite() throws Exception {
    assertNull(
        MvtGeometry.encode(
            new WKTReader().read("POLYGON ((10 10, 10.2 10, 10.2 10.2, 10 10))"), TILE, 4096));
  }

  @Test
  void aMixedCollectionKeepsItsHighestDimension() throws Exception {
    int[] c =
        commands(
            "GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 50 50),"
                + " POLYGON ((0 0, 100 0, 100 100, 0 100, 0 0)))",
            MvtGeometry.POLYGON);
    assertEquals(11, c.length);
  }

  @Test
  void encodingInPlaceWritesTheSameCommands() throws Exception {
    Envelope tile = new Envelope(-20037508.342789244, 0, 0, 20037508.342789244);
    for (String wkt :
        List.of(
            "POINT (-1234567.891 7654321.123)",
            "LINESTRING (-2e7 1e7, -1e7 2e7, -5e6 3e5)",
            "POLYGON ((-2e7 1, -1 1, -1 2e7, -2e7 2e7, -2e7 1), (-1e7 1e7, -1e7 1.1e7, -9e6 1.1e7,"
                + " -1e7 1e7))",
            "MULTIPOLYGON (((-3e6 3e6, -2e6 3e6, -2e6 4e6, -3e6 3e6)), ((-1e6 1e6, -9e5 1e6, -1e6"
                + " 1.1e6, -1e6 1e6)))")) {
      MvtGeometry.Commands copied = MvtGeometry.encode(new WKTReader().read(wkt), tile, 4096);
      MvtGeometry.Commands moved = MvtGeometry.encodeInPlace(new WKTReader().read(wkt), tile, 4096);
      assertEquals(copied.type(), moved.type(), wkt);
      assertArrayEquals(
          Arrays.copyOf(copied.values(), copied.length()),
          Arrays.copyOf(moved.values(), moved.length()),
          wkt);
    }
  }
}
