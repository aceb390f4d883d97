package io.tilebeam.io.format;

import io.tilebeam.codec.mvt.Protobuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * Decodes the polygon features of a Mapbox Vector Tile as a client would, for the checks of what
 * the MVT sink writes ({@link MvtValidityTest} on the fixture countries, {@link MvtTilesCheck} on
 * any directory of tiles).
 */
final class MvtDecoder {

  private static final GeometryFactory F = new GeometryFactory();

  private MvtDecoder() {}

  /**
   * A tile's polygon features by their source id (the {@link MvtFormat#ID_ATTRIBUTE} attribute; a
   * feature without one by {@code #} and its place among the tile's features without one), each a
   * (multi)polygon in grid units, y down.
   *
   * @throws IllegalArgumentException for a ring without area or a hole before any exterior ring,
   *     which the spec does not allow
   */
  static Map<String, Geometry> decode(byte[] bytes) throws IOException {
    Map<String, Geometry> out = new TreeMap<>();
    Protobuf.Reader tile = new Protobuf.Reader(bytes);
    int unnamed = 0;
    while (tile.next()) {
      Protobuf.Reader layer = tile.message();
      List<String> keys = new ArrayList<>();
      List<String> values = new ArrayList<>();
      List<Protobuf.Reader> features = new ArrayList<>();
      while (layer.next()) {
        switch (layer.field()) {
          case 2 -> features.add(layer.message());
          case 3 -> keys.add(layer.string());
          case 4 -> values.add(stringValue(layer.message()));
          default -> layer.skip();
        }
      }
      for (Protobuf.Reader feature : features) {
        String id = null;
        Geometry g = null;
        while (feature.next()) {
          if (feature.field() == 2) {
            int[] tags = packed(feature.message());
            for (int i = 0; i < tags.length; i += 2) {
              if (keys.get(tags[i]).equals(MvtFormat.ID_ATTRIBUTE)) {
                id = values.get(tags[i + 1]);
              }
            }
          } else if (feature.field() == 4) {
            g = polygons(packed(feature.message()));
          } else {
            feature.skip();
          }
        }
        out.put(id != null ? id : "#" + unnamed++, g);
      }
    }
    return out;
  }

  private static String stringValue(Protobuf.Reader value) throws IOException {
    String s = "";
    while (value.next()) {
      if (value.field() == 1) {
        s = value.string();
      } else {
        s = String.valueOf(value.varint());
      }
    }
    return s;
  }

  private static int[] packed(Protobuf.Reader r) throws IOException {
    int[] out = new int[16];
    int n = 0;
    while (r.hasMore()) {
      if (n == out.length) {
        out = java.util.Arrays.copyOf(out, n * 2);
      }
      out[n++] = (int) r.varint();
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /**
   * Polygons from geometry commands (MVT 2.1 §4.3.4): a ring with positive surveyor's area (in grid
   * units, y down) starts a polygon, one with negative area is a hole of the last; zero area is not
   * allowed.
   */
  private static Geometry polygons(int[] commands) {
    List<Polygon> polygons = new ArrayList<>();
    LinearRing shell = null;
    List<LinearRing> holes = new ArrayList<>();
    long x = 0;
    long y = 0;
    List<Coordinate> ring = new ArrayList<>();
    int i = 0;
    while (i < commands.length) {
      int id = commands[i] & 7;
      int count = commands[i] >>> 3;
      i++;
      if (id == 7) {
        ring.add(ring.get(0));
        Coordinate[] c = ring.toArray(Coordinate[]::new);
        double area = 0;
        for (int k = 0; k + 1 < c.length; k++) {
          area += c[k].x * c[k + 1].y - c[k + 1].x * c[k].y;
        }
        if (area == 0) {
          throw new IllegalArgumentException("a ring without area at " + c[0]);
        }
        if (area > 0) {
          if (shell != null) {
            polygons.add(F.createPolygon(shell, holes.toArray(LinearRing[]::new)));
          }
          shell = F.createLinearRing(c);
          holes = new ArrayList<>();
        } else {
          if (shell == null) {
            throw new IllegalArgumentException("a hole before any exterior ring at " + c[0]);
          }
          holes.add(F.createLinearRing(c));
        }
        ring = new ArrayList<>();
        continue;
      }
      for (int k = 0; k < count; k++) {
        x += Protobuf.unzigzag(commands[i++]);
        y += Protobuf.unzigzag(commands[i++]);
        ring.add(new Coordinate(x, y));
      }
    }
    if (shell != null) {
      polygons.add(F.createPolygon(shell, holes.toArray(LinearRing[]::new)));
    }
    return polygons.size() == 1
        ? polygons.get(0)
        : F.createMultiPolygon(polygons.toArray(Polygon[]::new));
  }
}
