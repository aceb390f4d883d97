package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * Reads a GeoJSON Feature record of the plain, well-formed kind straight from its tokens: its
 * coordinates go from the parser into JTS coordinates without a JSON tree of one node per number
 * and one per position, which was most of the cost of reading a GeoJSONSeq file. Only the
 * properties become a tree (they are written out as canonical JSON).
 *
 * <p>Anything else gives null, and the caller reads the record as a tree ({@link GeoJsonFeatures}),
 * which repairs what it can and names what is wrong: corrupt JSON, a member given twice, a geometry
 * whose {@code type} comes after its {@code coordinates}, a geometry collection, an unclosed or
 * short ring, a non-finite or missing ordinate, an id that is neither a string nor an integer.
 * Where this reader gives a feature it is the feature the tree reading gives (a test checks both on
 * the same records), so which way a record was read never shows in the tiles.
 */
final class PlainGeoJsonRecord {

  /** Thrown inside the reader when the record is not of the plain kind; carries no stack. */
  private static final class NotPlain extends Exception {
    private static final long serialVersionUID = 1L;
    static final NotPlain INSTANCE = new NotPlain();

    private NotPlain() {
      super(null, null, false, false);
    }
  }

  private final ObjectMapper mapper;
  private final GeometryFactory factory = new GeometryFactory();
  private final SourceFeatures features = new SourceFeatures();
  private final List<Coordinate> positions = new ArrayList<>();

  /**
   * The feature of the record in {@code bytes[from, from + length)}, or null (read it as a tree).
   */
  /** A reader whose parser keeps {@code mapper}'s limits. */
  PlainGeoJsonRecord(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** A reader under the default limits. */
  PlainGeoJsonRecord() {
    this(GeoJsonFeatures.MAPPER);
  }

  Feature read(byte[] bytes, int from, int length) {
    try (JsonParser p = mapper.createParser(bytes, from, length)) {
      Feature f = feature(p);
      return p.nextToken() == null ? f : null;
    } catch (NotPlain | IOException | RuntimeException e) {
      return null;
    }
  }

  private Feature feature(JsonParser p) throws IOException, NotPlain {
    expect(p.nextToken(), JsonToken.START_OBJECT);
    boolean typed = false;
    String id = null;
    Geometry geometry = null;
    ObjectNode properties = null;
    boolean idSeen = false;
    boolean propertiesSeen = false;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      switch (name) {
        case "type" -> {
          if (typed || value != JsonToken.VALUE_STRING || !"Feature".equals(p.getText())) {
            throw NotPlain.INSTANCE;
          }
          typed = true;
        }
        case "id" -> {
          if (idSeen) {
            throw NotPlain.INSTANCE;
          }
          idSeen = true;
          id = id(p, value);
        }
        case "geometry" -> {
          if (geometry != null) {
            throw NotPlain.INSTANCE;
          }
          if (value == JsonToken.VALUE_NULL) {
            geometry = factory.createGeometryCollection();
          } else {
            expect(value, JsonToken.START_OBJECT);
            geometry = geometry(p);
          }
        }
        case "properties" -> {
          if (propertiesSeen) {
            throw NotPlain.INSTANCE;
          }
          propertiesSeen = true;
          if (value == JsonToken.START_OBJECT) {
            JsonNode tree = p.readValueAsTree();
            properties = (ObjectNode) tree;
          } else if (value != JsonToken.VALUE_NULL) {
            throw NotPlain.INSTANCE;
          }
        }
        default -> p.skipChildren();
      }
    }
    if (!typed || geometry == null) {
      throw NotPlain.INSTANCE;
    }
    if (properties == null) {
      properties = GeoJsonFeatures.MAPPER.createObjectNode();
    }
    return features.feature(id, geometry, properties);
  }

  /** A string id, or an integer one written as the tree reading writes it. */
  private static String id(JsonParser p, JsonToken value) throws IOException, NotPlain {
    if (value == JsonToken.VALUE_STRING) {
      return p.getText();
    }
    if (value == JsonToken.VALUE_NUMBER_INT) {
      return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          ? p.getBigIntegerValue().toString()
          : String.valueOf(p.getLongValue());
    }
    throw NotPlain.INSTANCE;
  }

  /** A geometry object whose {@code type} comes before its {@code coordinates}. */
  private Geometry geometry(JsonParser p) throws IOException, NotPlain {
    String type = null;
    Geometry g = null;
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if ("type".equals(name)) {
        if (type != null || value != JsonToken.VALUE_STRING) {
          throw NotPlain.INSTANCE;
        }
        type = p.getText();
      } else if ("coordinates".equals(name)) {
        if (type == null || g != null) {
          throw NotPlain.INSTANCE;
        }
        g = coordinates(p, type, value);
      } else if ("geometries".equals(name)) {
        throw NotPlain.INSTANCE;
      } else {
        p.skipChildren();
      }
    }
    if (g == null) {
      throw NotPlain.INSTANCE;
    }
    return g;
  }

  private Geometry coordinates(JsonParser p, String type, JsonToken value)
      throws IOException, NotPlain {
    expect(value, JsonToken.START_ARRAY);
    switch (type) {
      case "Point":
        return factory.createPoint(positionAfterStart(p));
      case "MultiPoint":
        return factory.createMultiPointFromCoords(positionsAfterStart(p));
      case "LineString":
        return factory.createLineString(positionsAfterStart(p));
      case "MultiLineString":
        {
          List<LineString> lines = new ArrayList<>();
          for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            expect(t, JsonToken.START_ARRAY);
            lines.add(factory.createLineString(positionsAfterStart(p)));
          }
          return factory.createMultiLineString(lines.toArray(LineString[]::new));
        }
      case "Polygon":
        return polygonAfterStart(p);
      case "MultiPolygon":
        {
          List<Polygon> polygons = new ArrayList<>();
          for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            expect(t, JsonToken.START_ARRAY);
            polygons.add(polygonAfterStart(p));
          }
          return factory.createMultiPolygon(polygons.toArray(Polygon[]::new));
        }
      default:
        throw NotPlain.INSTANCE;
    }
  }

  /** A polygon of at least one ring, each closed and of four positions or more. */
  private Polygon polygonAfterStart(JsonParser p) throws IOException, NotPlain {
    List<LinearRing> rings = new ArrayList<>(1);
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      expect(t, JsonToken.START_ARRAY);
      Coordinate[] ring = positionsAfterStart(p);
      if (ring.length < 4 || !ring[0].equals2D(ring[ring.length - 1])) {
        throw NotPlain.INSTANCE;
      }
      rings.add(factory.createLinearRing(ring));
    }
    if (rings.isEmpty()) {
      throw NotPlain.INSTANCE;
    }
    return factory.createPolygon(
        rings.get(0), rings.subList(1, rings.size()).toArray(LinearRing[]::new));
  }

  private Coordinate[] positionsAfterStart(JsonParser p) throws IOException, NotPlain {
    positions.clear();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      expect(t, JsonToken.START_ARRAY);
      positions.add(positionAfterStart(p));
    }
    return positions.toArray(Coordinate[]::new);
  }

  /** A position of two finite numbers or more; ordinates after the second are not kept. */
  private static Coordinate positionAfterStart(JsonParser p) throws IOException, NotPlain {
    double x = ordinate(p.nextToken(), p);
    double y = ordinate(p.nextToken(), p);
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      ordinate(t, p);
    }
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw NotPlain.INSTANCE;
    }
    return new Coordinate(x, y);
  }

  private static double ordinate(JsonToken t, JsonParser p) throws IOException, NotPlain {
    if (t != JsonToken.VALUE_NUMBER_FLOAT && t != JsonToken.VALUE_NUMBER_INT) {
      throw NotPlain.INSTANCE;
    }
    return JsonNumbers.value(p, t);
  }

  private static void expect(JsonToken t, JsonToken wanted) throws NotPlain {
    if (t != wanted) {
      throw NotPlain.INSTANCE;
    }
  }
}
