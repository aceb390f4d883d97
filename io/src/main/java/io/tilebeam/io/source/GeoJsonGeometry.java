package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.JsonNode;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * Reads RFC 7946 geometry objects into JTS geometries (x = first ordinate, y = second). An unclosed
 * polygon ring is closed (a common fault, repaired and counted); anything else malformed, such as a
 * non-finite coordinate or a ring of fewer than four positions, is an {@link
 * IllegalArgumentException} naming the value.
 */
final class GeoJsonGeometry {

  private final GeometryFactory f;
  private long ringsClosed;

  GeoJsonGeometry(GeometryFactory f) {
    this.f = f;
  }

  /** How many unclosed rings this reader has closed. */
  long ringsClosed() {
    return ringsClosed;
  }

  Geometry parse(JsonNode node) {
    if (node == null || node.isNull()) {
      return f.createGeometryCollection();
    }
    String type = node.path("type").asText("");
    JsonNode c = node.get("coordinates");
    switch (type) {
      case "Point":
        return f.createPoint(position(c));
      case "MultiPoint":
        return f.createMultiPointFromCoords(positions(c));
      case "LineString":
        return f.createLineString(positions(c));
      case "MultiLineString":
        {
          LineString[] lines = new LineString[size(c)];
          for (int i = 0; i < lines.length; i++) {
            lines[i] = f.createLineString(positions(c.get(i)));
          }
          return f.createMultiLineString(lines);
        }
      case "Polygon":
        return polygon(c);
      case "MultiPolygon":
        {
          Polygon[] polygons = new Polygon[size(c)];
          for (int i = 0; i < polygons.length; i++) {
            polygons[i] = polygon(c.get(i));
          }
          return f.createMultiPolygon(polygons);
        }
      case "GeometryCollection":
        {
          JsonNode geometries = node.path("geometries");
          Geometry[] parts = new Geometry[geometries.size()];
          for (int i = 0; i < parts.length; i++) {
            parts[i] = parse(geometries.get(i));
          }
          return f.createGeometryCollection(parts);
        }
      default:
        throw new IllegalArgumentException("unknown geometry type '" + type + "'");
    }
  }

  private Polygon polygon(JsonNode rings) {
    if (size(rings) == 0) {
      return f.createPolygon();
    }
    LinearRing shell = ring(rings.get(0));
    LinearRing[] holes = new LinearRing[rings.size() - 1];
    for (int i = 1; i < rings.size(); i++) {
      holes[i - 1] = ring(rings.get(i));
    }
    return f.createPolygon(shell, holes);
  }

  private LinearRing ring(JsonNode node) {
    Coordinate[] coords = positions(node);
    if (coords.length > 0 && !coords[0].equals2D(coords[coords.length - 1])) {
      // An unclosed ring is a common data fault; closing it keeps the feature, and JTS would throw.
      Coordinate[] closed = java.util.Arrays.copyOf(coords, coords.length + 1);
      closed[coords.length] = coords[0].copy();
      coords = closed;
      ringsClosed++;
    }
    if (coords.length > 0 && coords.length < 4) {
      throw new IllegalArgumentException("a polygon ring has " + coords.length + " positions");
    }
    return f.createLinearRing(coords);
  }

  private static Coordinate[] positions(JsonNode node) {
    Coordinate[] out = new Coordinate[size(node)];
    for (int i = 0; i < out.length; i++) {
      out[i] = position(node.get(i));
    }
    return out;
  }

  private static Coordinate position(JsonNode node) {
    if (node == null || !node.isArray() || node.size() < 2) {
      throw new IllegalArgumentException("a position needs at least two numbers: " + node);
    }
    if (!node.get(0).isNumber() || !node.get(1).isNumber()) {
      throw new IllegalArgumentException("a position has a non-number: " + node);
    }
    double x = node.get(0).doubleValue();
    double y = node.get(1).doubleValue();
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      // 1e999 reads as infinity, and a lenient writer's NaN as NaN: no CRS can place either.
      throw new IllegalArgumentException("a position is not finite: " + node);
    }
    return new Coordinate(x, y);
  }

  private static int size(JsonNode node) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException("expected an array of coordinates, got " + node);
    }
    return node.size();
  }
}
