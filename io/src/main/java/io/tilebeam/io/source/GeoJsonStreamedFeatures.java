package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * Reads a well-formed GeoJSON Feature object straight from the parser's tokens, coordinates into
 * JTS coordinates as they come: the fast way for the common case. A tree of the feature (as {@link
 * GeoJsonFeatures} reads) holds about four objects per coordinate, a country's coastline hundreds
 * of megabytes for a moment; here only the coordinates are made.
 *
 * <p>It gives the same feature as {@link GeoJsonFeatures#toFeature} for every feature it accepts:
 * members in any order (a geometry's {@code type} after its {@code coordinates} too), unknown
 * members skipped, unclosed polygon rings closed and counted. Whatever that reader would refuse or
 * treat specially (not a Feature, a GeometryCollection, a position that is not two finite numbers,
 * coordinates nested to the wrong depth, a short ring) is left to it: {@link #read} returns null,
 * and the caller reads the feature again as a tree, which names the fault exactly as before.
 */
final class GeoJsonStreamedFeatures {

  /** Thrown inside a read to give the feature to the tree reader; no stack trace is kept. */
  private static final class NotFast extends Exception {
    private static final long serialVersionUID = 1L;
    static final NotFast INSTANCE = new NotFast();

    private NotFast() {
      super(null, null, false, false);
    }
  }

  private static final Coordinate[] NO_POSITIONS = new Coordinate[0];

  private final ObjectMapper mapper;
  private final GeometryFactory f = new GeometryFactory();
  private final SourceFeatures features = new SourceFeatures();
  private long ringsClosed;

  GeoJsonStreamedFeatures(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** Unclosed polygon rings closed so far. */
  long ringsClosed() {
    return ringsClosed;
  }

  /**
   * The feature whose {@code START_OBJECT} is the parser's current token, read to its {@code
   * END_OBJECT}; or null, with the parser still at its end, when the feature is for the tree
   * reader.
   *
   * @throws IOException when the parser cannot go on (corrupt JSON, a reading limit broken)
   */
  Feature read(JsonParser p) throws IOException {
    int depth = p.getParsingContext().getNestingDepth();
    try {
      return feature(p);
    } catch (NotFast e) {
      // Skip to the end of the feature object, at whatever depth the fast reader gave up.
      while (p.currentToken() != JsonToken.END_OBJECT
          || p.getParsingContext().getNestingDepth() != depth - 1) {
        if (p.nextToken() == null) {
          throw new java.io.EOFException("the feature is not closed before the input ends");
        }
      }
      return null;
    }
  }

  private Feature feature(JsonParser p) throws IOException, NotFast {
    String type = null;
    JsonNode id = null;
    JsonNode properties = null;
    Geometry geometry = null;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        case "type" -> type = text(p, value);
        case "id" -> id = mapper.readTree(p);
        case "properties" -> properties = mapper.readTree(p);
        case "geometry" -> geometry = geometry(p, value);
        default -> p.skipChildren();
      }
    }
    if (!"Feature".equals(type)
        || (properties != null && !properties.isNull() && !properties.isObject())) {
      throw NotFast.INSTANCE;
    }
    ObjectNode props =
        properties == null || properties.isNull()
            ? GeoJsonFeatures.MAPPER.createObjectNode()
            : (ObjectNode) properties;
    if (geometry == null) {
      geometry = f.createGeometryCollection();
    }
    return features.feature(SourceFeatures.idOf(id), geometry, props);
  }

  /**
   * The string whose token, {@code value}, was just read; anything else is not for the fast way.
   */
  private static String text(JsonParser p, JsonToken value) throws IOException, NotFast {
    if (value != JsonToken.VALUE_STRING) {
      throw NotFast.INSTANCE;
    }
    return p.getText();
  }

  /** The geometry object (or null) whose first token is {@code first}. */
  private Geometry geometry(JsonParser p, JsonToken first) throws IOException, NotFast {
    if (first == JsonToken.VALUE_NULL) {
      return f.createGeometryCollection();
    }
    if (first != JsonToken.START_OBJECT) {
      throw NotFast.INSTANCE;
    }
    String type = null;
    Object coordinates = null;
    for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        case "type" -> type = text(p, value);
        case "coordinates" -> {
          if (value != JsonToken.START_ARRAY) {
            throw NotFast.INSTANCE;
          }
          coordinates = array(p, p.nextToken());
        }
        default -> p.skipChildren();
      }
    }
    if (type == null || coordinates == null) {
      throw NotFast.INSTANCE;
    }
    return switch (type) {
      case "Point" -> f.createPoint(position(coordinates));
      case "MultiPoint" -> f.createMultiPointFromCoords(positions(coordinates));
      case "LineString" -> f.createLineString(positions(coordinates));
      case "MultiLineString" -> {
        List<?> parts = list(coordinates);
        LineString[] lines = new LineString[parts.size()];
        for (int i = 0; i < lines.length; i++) {
          lines[i] = f.createLineString(positions(parts.get(i)));
        }
        yield f.createMultiLineString(lines);
      }
      case "Polygon" -> polygon(coordinates);
      case "MultiPolygon" -> {
        List<?> parts = list(coordinates);
        Polygon[] polygons = new Polygon[parts.size()];
        for (int i = 0; i < polygons.length; i++) {
          polygons[i] = polygon(parts.get(i));
        }
        yield f.createMultiPolygon(polygons);
      }
      default -> throw NotFast.INSTANCE; // a GeometryCollection, or unknown
    };
  }

  /**
   * The content of an array whose first inner token, {@code first}, was just read: a position (a
   * {@link Coordinate}), an array of positions (a {@code Coordinate[]}), or a list of deeper
   * arrays; an empty array is an empty list.
   */
  private Object array(JsonParser p, JsonToken first) throws IOException, NotFast {
    if (first == JsonToken.VALUE_NUMBER_INT || first == JsonToken.VALUE_NUMBER_FLOAT) {
      return position(p);
    }
    if (first == JsonToken.END_ARRAY) {
      return List.of();
    }
    if (first != JsonToken.START_ARRAY) {
      throw NotFast.INSTANCE;
    }
    JsonToken inner = p.nextToken();
    if (inner == JsonToken.VALUE_NUMBER_INT || inner == JsonToken.VALUE_NUMBER_FLOAT) {
      return positionsFrom(p);
    }
    List<Object> children = new ArrayList<>();
    children.add(array(p, inner));
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t != JsonToken.START_ARRAY) {
        throw NotFast.INSTANCE;
      }
      children.add(array(p, p.nextToken()));
    }
    return children;
  }

  /** An array of positions, the parser at the first number of the first one. */
  private Coordinate[] positionsFrom(JsonParser p) throws IOException, NotFast {
    Coordinate[] out = new Coordinate[16];
    int n = 0;
    out[n++] = position(p);
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      JsonToken x = t == JsonToken.START_ARRAY ? p.nextToken() : null;
      if (x != JsonToken.VALUE_NUMBER_INT && x != JsonToken.VALUE_NUMBER_FLOAT) {
        throw NotFast.INSTANCE;
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = position(p);
    }
    return Arrays.copyOf(out, n);
  }

  /** A position, the parser at its first number; read to its end. */
  private static Coordinate position(JsonParser p) throws IOException, NotFast {
    double x = JsonNumbers.value(p, p.currentToken());
    JsonToken t = p.nextToken();
    if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw NotFast.INSTANCE;
    }
    double y = JsonNumbers.value(p, t);
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw NotFast.INSTANCE;
    }
    // Further ordinates (height, a measure) are dropped, as the tree reader drops them; anything
    // but numbers there is left to it.
    for (t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
        throw NotFast.INSTANCE;
      }
    }
    return new Coordinate(x, y);
  }

  private Polygon polygon(Object rings) throws NotFast {
    List<?> list = list(rings);
    if (list.isEmpty()) {
      return f.createPolygon();
    }
    LinearRing shell = ring(list.get(0));
    LinearRing[] holes = new LinearRing[list.size() - 1];
    for (int i = 1; i < list.size(); i++) {
      holes[i - 1] = ring(list.get(i));
    }
    return f.createPolygon(shell, holes);
  }

  private LinearRing ring(Object positions) throws NotFast {
    Coordinate[] coords = positions(positions);
    if (coords.length > 0 && !coords[0].equals2D(coords[coords.length - 1])) {
      // As the tree reader: an unclosed ring is closed and counted.
      Coordinate[] closed = Arrays.copyOf(coords, coords.length + 1);
      closed[coords.length] = coords[0].copy();
      coords = closed;
      ringsClosed++;
    }
    if (coords.length > 0 && coords.length < 4) {
      throw NotFast.INSTANCE;
    }
    return f.createLinearRing(coords);
  }

  private static Coordinate position(Object value) throws NotFast {
    if (value instanceof Coordinate c) {
      return c;
    }
    throw NotFast.INSTANCE;
  }

  private static Coordinate[] positions(Object value) throws NotFast {
    if (value instanceof Coordinate[] c) {
      return c;
    }
    if (value instanceof List<?> l && l.isEmpty()) {
      return NO_POSITIONS;
    }
    throw NotFast.INSTANCE;
  }

  private static List<?> list(Object value) throws NotFast {
    if (value instanceof List<?> l) {
      return l;
    }
    throw NotFast.INSTANCE;
  }
}
