package io.tilebeam.transforms.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

class WkbBytesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "POINT (1.5 -2.25)",
        "LINESTRING (0 0, 1 1, 2 0.5)",
        "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 3, 3 3, 2 2))",
        "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
        "GEOMETRYCOLLECTION (POINT (1 1), LINESTRING (0 0, 3 3))",
        "GEOMETRYCOLLECTION EMPTY",
        "POLYGON EMPTY",
        "POINT EMPTY",
        "LINESTRING EMPTY",
        "MULTIPOINT ((1 2), (3 4))",
        "MULTILINESTRING ((0 0, 1 1), EMPTY)",
        "MULTIPOLYGON (((0 0, 9 0, 9 9, 0 0), (1 1, 2 1, 2 2, 1 1), (5 5, 6 5, 6 6, 5 5)), EMPTY)",
        "GEOMETRYCOLLECTION (POLYGON EMPTY, MULTIPOINT EMPTY, GEOMETRYCOLLECTION (POINT (1 1)))"
      })
  void writesExactlyWhatJtsWrites(String wkt) throws Exception {
    var geometry = new WKTReader().read(wkt);
    for (int order :
        new int[] {
          org.locationtech.jts.io.ByteOrderValues.BIG_ENDIAN,
          org.locationtech.jts.io.ByteOrderValues.LITTLE_ENDIAN
        }) {
      WKBWriter writer = new WKBWriter(2, order);
      assertArrayEquals(writer.write(geometry), WkbBytes.of(writer, geometry), wkt);
    }
    // The array is made at its final size: no growing, no trimming copy.
    assertEquals(new WKBWriter(2).write(geometry).length, WkbBytes.size(geometry), wkt);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 1000, 100_000})
  void growsPastItsFirstGuess(int parts) throws Exception {
    // A collection of many empty polygons has no points, yet many bytes.
    var geometry =
        new WKTReader()
            .read("GEOMETRYCOLLECTION (" + "POLYGON EMPTY, ".repeat(parts) + "POINT (1 2))");
    WKBWriter writer = new WKBWriter(2);
    assertArrayEquals(writer.write(geometry), WkbBytes.of(writer, geometry));
  }
}
