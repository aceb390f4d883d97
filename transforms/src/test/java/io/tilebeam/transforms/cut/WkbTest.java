package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.io.ByteOrderValues;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/** The cutter's own WKB is byte for byte what JTS writes (little-endian, 2D). */
class WkbTest {

  private static byte[] jts(String wkt) throws Exception {
    return new WKBWriter(2, ByteOrderValues.LITTLE_ENDIAN).write(new WKTReader().read(wkt));
  }

  @Test
  void aPolygonWithAHoleGrowingFromATinyBuffer() throws Exception {
    Wkb w = new Wkb(1);
    w.polygon(
        new double[] {0, 0, 10, 0, 10, 10, 0, 10}, List.of(new double[] {2, 2, 2, 3, 3, 3.5}));
    assertArrayEquals(
        jts("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 3, 3 3.5, 2 2))"), w.bytes());
  }

  @Test
  void multiPartsLinesAndPoints() throws Exception {
    Wkb w = new Wkb(64);
    w.header(Wkb.GEOMETRY_COLLECTION).integer(3);
    w.polygon(new double[] {0, 0, 1, 0, 1, 1}, List.of());
    w.lineString(new double[] {-1.5, 2.25, 1e300, -0.0});
    w.point(Double.MIN_VALUE, 7);
    assertArrayEquals(
        jts(
            "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 0)),"
                + " LINESTRING (-1.5 2.25, 1e300 -0.0), POINT (4.9E-324 7))"),
        w.bytes());
  }
}
