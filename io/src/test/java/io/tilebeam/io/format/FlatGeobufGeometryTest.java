package io.tilebeam.io.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;
import org.wololo.flatgeobuf.GeometryConversions;
import org.wololo.flatgeobuf.generated.GeometryType;

/**
 * Writing WKB straight into a FlatGeobuf geometry gives the bytes the flatgeobuf library gives for
 * the same geometry through JTS, for every simple type, both byte orders and both kinds of header,
 * and writes nothing for WKB it leaves to the library.
 */
class FlatGeobufGeometryTest {

  private static final GeometryFactory F = new GeometryFactory();

  private static byte[] library(Geometry g, byte headerType) throws Exception {
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    b.finish(GeometryConversions.serialize(b, g, headerType));
    return b.sizedByteArray();
  }

  private static byte[] direct(byte[] wkb, byte headerType) {
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    int offset = new FlatGeobufGeometry().write(b, wkb, headerType);
    assertTrue(offset >= 0, "written directly");
    b.finish(offset);
    return b.sizedByteArray();
  }

  private static void sameBytes(Geometry g) throws Exception {
    byte type = GeometryConversions.toGeometryType(g.getClass());
    for (int order : new int[] {0, 1}) {
      byte[] wkb = new WKBWriter(2, order == 0 ? 2 : 1).write(g);
      // The library is given what the encoder gave it: the geometry read back from the WKB.
      Geometry read = new WKBReader(F).read(wkb);
      for (byte header : new byte[] {type, GeometryType.Unknown}) {
        assertArrayEquals(library(read, header), direct(wkb, header), g.toText());
      }
      FlatGeobufGeometry direct = new FlatGeobufGeometry();
      direct.write(new FlatBufferBuilder(64), wkb, type);
      assertEquals(g.getEnvelopeInternal(), direct.envelope(), g.toText());
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "POINT (1.5 -2)",
        "LINESTRING (0 0, 1 1, 2 0.5)",
        "POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))",
        "POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0), (1 1, 2 1, 2 2, 1 1), (5 5, 6 5, 6 6, 5 5))",
        "MULTIPOINT ((1 2))",
        "MULTIPOINT ((1 2), (3 4), (-5 6))",
        "MULTILINESTRING ((0 0, 1 1))",
        "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3, 4 2))",
        "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)))",
        "MULTIPOLYGON (((0 0, 9 0, 9 9, 0 0), (1 1, 2 1, 2 2, 1 1)), ((20 20, 21 20, 21 21, 20 20)))",
      })
  void everySimpleTypeGivesTheLibrarysBytes(String wkt) throws Exception {
    sameBytes(new WKTReader(F).read(wkt));
  }

  @Test
  void randomGeometriesGiveTheLibrarysBytes() throws Exception {
    Random random = new Random(11);
    for (int trial = 0; trial < 300; trial++) {
      int parts = 1 + random.nextInt(4);
      List<Polygon> polygons = new ArrayList<>();
      List<LineString> lines = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        polygons.add(F.createPolygon(ring(random), new LinearRing[] {ring(random)}));
        lines.add(F.createLineString(ring(random).getCoordinates()));
      }
      sameBytes(F.createMultiPolygon(polygons.toArray(Polygon[]::new)));
      sameBytes(F.createMultiLineString(lines.toArray(LineString[]::new)));
      sameBytes(polygons.get(0));
    }
  }

  private static LinearRing ring(Random random) {
    int n = 3 + random.nextInt(20);
    Coordinate[] c = new Coordinate[n + 1];
    for (int i = 0; i < n; i++) {
      c[i] = new Coordinate(random.nextGaussian() * 1e6, random.nextGaussian() * 1e6);
    }
    c[n] = c[0].copy();
    return F.createLinearRing(c);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "POINT EMPTY",
        "POLYGON EMPTY",
        "MULTIPOLYGON EMPTY",
        "GEOMETRYCOLLECTION (POINT (1 2))",
        "POINT Z (1 2 3)",
      })
  void whatItDoesNotTakeIsLeftUnwritten(String wkt) throws Exception {
    Geometry g = new WKTReader(F).read(wkt);
    byte[] wkb = new WKBWriter(g.getDimension() == 0 && wkt.contains(" Z ") ? 3 : 2).write(g);
    FlatBufferBuilder b = new FlatBufferBuilder(64);
    int before = b.offset();
    assertEquals(-1, new FlatGeobufGeometry().write(b, wkb, GeometryType.Unknown), wkt);
    assertEquals(before, b.offset(), "nothing written");
  }

  @Test
  void aTypeOtherThanTheHeadersIsLeftUnwritten() throws Exception {
    byte[] wkb = new WKBWriter(2).write(new WKTReader(F).read("POINT (1 2)"));
    assertEquals(
        -1, new FlatGeobufGeometry().write(new FlatBufferBuilder(64), wkb, GeometryType.Polygon));
  }
}
