package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.feature.Feature;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.wololo.flatgeobuf.generated.ColumnType;
import org.wololo.flatgeobuf.generated.GeometryType;

/**
 * FlatGeobuf features to {@link Feature}s. Geometries keep x and y (a z or m is dropped, as for
 * every source); properties become JSON values by column type; the id is the id column's value (by
 * default the column named {@code id}, which is where GDAL puts a GeoJSON feature's string id), or
 * else the digest every format uses ({@link SourceFeatures}).
 */
final class FlatGeobufFeatures {

  /** The column types that become properties; the others are refused when the job is planned. */
  static final Set<Integer> READABLE_TYPES =
      Set.of(
          ColumnType.Byte,
          ColumnType.UByte,
          ColumnType.Bool,
          ColumnType.Short,
          ColumnType.UShort,
          ColumnType.Int,
          ColumnType.UInt,
          ColumnType.Long,
          ColumnType.ULong,
          ColumnType.Float,
          ColumnType.Double,
          ColumnType.String,
          ColumnType.Json,
          ColumnType.DateTime);

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final List<FlatGeobufFile.Column> columns;
  private final int headerGeometryType;
  private final int idColumn;
  private final GeometryFactory factory = new GeometryFactory();
  private final SourceFeatures features = new SourceFeatures();
  private long ringsClosed;

  /**
   * A decoder for a file's features.
   *
   * @param idColumn the name of the id column, or null when there is none
   */
  FlatGeobufFeatures(FlatGeobufFile file, String idColumn) {
    this.columns = file.columns();
    this.headerGeometryType = file.geometryType();
    int found = -1;
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(idColumn)) {
        found = i;
      }
    }
    this.idColumn = found;
  }

  /**
   * The column types of a file that cannot become properties, as messages naming each column; empty
   * when every column can.
   */
  static List<String> unreadableColumns(FlatGeobufFile file) {
    return file.columns().stream()
        .filter(c -> !READABLE_TYPES.contains(c.type()))
        .map(
            c ->
                "column '"
                    + c.name()
                    + "' has type "
                    + (c.type() >= 0 && c.type() < ColumnType.names.length
                        ? ColumnType.names[c.type()]
                        : "code " + c.type())
                    + ", which cannot be a property (readable: numbers, Bool, String, Json,"
                    + " DateTime)")
        .toList();
  }

  /**
   * The feature in a record.
   *
   * @throws IllegalArgumentException when its geometry or properties are malformed
   */
  Feature decode(ByteBuffer body) {
    org.wololo.flatgeobuf.generated.Feature f;
    try {
      f = org.wololo.flatgeobuf.generated.Feature.getRootAsFeature(body);
      ObjectNode properties = JSON.objectNode();
      String id = properties(f, properties);
      org.wololo.flatgeobuf.generated.Geometry g = f.geometry();
      Geometry geometry =
          g == null ? factory.createGeometryCollection() : geometry(g, headerGeometryType, 0);
      return features.feature(id, geometry, properties);
    } catch (IndexOutOfBoundsException | java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("corrupt feature: " + e.getMessage(), e);
    }
  }

  /** Unclosed polygon rings closed so far. */
  long ringsClosed() {
    return ringsClosed;
  }

  /** Decodes the properties into {@code out}; returns the id column's value, or null. */
  private String properties(org.wololo.flatgeobuf.generated.Feature f, ObjectNode out) {
    ByteBuffer bytes = f.propertiesAsByteBuffer();
    if (bytes == null) {
      return null;
    }
    ByteBuffer b = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    String id = null;
    while (b.hasRemaining()) {
      int index = Short.toUnsignedInt(b.getShort());
      if (index >= columns.size()) {
        throw new IllegalArgumentException(
            "a property of column " + index + ", which is not in the header");
      }
      FlatGeobufFile.Column column = columns.get(index);
      JsonNode value = value(column, b);
      if (index == idColumn) {
        id = value.isTextual() || value.isIntegralNumber() ? value.asText() : null;
        if (id == null && !value.isNull()) {
          throw new IllegalArgumentException(
              "id column '" + column.name() + "' holds " + value + ", not a string or an integer");
        }
      } else {
        out.set(column.name(), value);
      }
    }
    return id;
  }

  private static JsonNode value(FlatGeobufFile.Column column, ByteBuffer b) {
    return switch (column.type()) {
      case ColumnType.Byte -> JSON.numberNode(b.get());
      case ColumnType.UByte -> JSON.numberNode(Byte.toUnsignedInt(b.get()));
      case ColumnType.Bool -> JSON.booleanNode(b.get() != 0);
      case ColumnType.Short -> JSON.numberNode(b.getShort());
      case ColumnType.UShort -> JSON.numberNode(Short.toUnsignedInt(b.getShort()));
      case ColumnType.Int -> JSON.numberNode(b.getInt());
      case ColumnType.UInt -> JSON.numberNode(Integer.toUnsignedLong(b.getInt()));
      case ColumnType.Long -> JSON.numberNode(b.getLong());
      case ColumnType.ULong -> JSON.numberNode(new BigInteger(Long.toUnsignedString(b.getLong())));
      // A float column's value as the shortest decimal that reads back as that float.
      case ColumnType.Float -> JSON.numberNode(new BigDecimal(Float.toString(b.getFloat())));
      case ColumnType.Double -> finite(column, b.getDouble());
      case ColumnType.String, ColumnType.DateTime -> JSON.textNode(text(column, b));
      case ColumnType.Json -> json(column, text(column, b));
      default ->
          throw new IllegalArgumentException(
              "column '" + column.name() + "' has type code " + column.type() + ", not readable");
    };
  }

  private static JsonNode finite(FlatGeobufFile.Column column, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          "column '" + column.name() + "' holds " + value + ", which JSON cannot hold");
    }
    return JSON.numberNode(value);
  }

  private static String text(FlatGeobufFile.Column column, ByteBuffer b) {
    long length = Integer.toUnsignedLong(b.getInt());
    if (length > b.remaining()) {
      throw new IllegalArgumentException(
          "column '" + column.name() + "': a value of " + length + " bytes in " + b.remaining());
    }
    ByteBuffer value = b.slice(b.position(), (int) length);
    b.position(b.position() + (int) length);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(value)
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("column '" + column.name() + "' is not UTF-8", e);
    }
  }

  private static JsonNode json(FlatGeobufFile.Column column, String text) {
    try {
      return GeoJsonFeatures.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "column '" + column.name() + "' is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The deepest nesting of geometry parts read: a collection of collections is rare already. */
  static final int MOST_NESTING = 32;

  /**
   * A FlatGeobuf geometry of {@code type} (or of its own type when the header says Unknown), {@code
   * depth} parts deep. Its vectors' lengths are checked against the feature's bytes before anything
   * is sized by them, and parts may nest {@link #MOST_NESTING} deep: a part that points back at
   * itself is refused, not followed.
   */
  private Geometry geometry(org.wololo.flatgeobuf.generated.Geometry g, int type, int depth) {
    if (depth > MOST_NESTING) {
      throw new IllegalArgumentException(
          "geometry parts nest deeper than " + MOST_NESTING + " levels");
    }
    long bytes = g.getByteBuffer().capacity();
    if (8L * g.xyLength() > bytes || 8L * g.endsLength() > bytes || 4L * g.partsLength() > bytes) {
      throw new IllegalArgumentException(
          "a geometry claims "
              + g.xyLength()
              + " coordinates, "
              + g.endsLength()
              + " ends and "
              + g.partsLength()
              + " parts in a feature of "
              + bytes
              + " bytes");
    }
    int t = type == GeometryType.Unknown ? g.type() : type;
    return switch (t) {
      case GeometryType.Point -> point(g);
      case GeometryType.LineString -> factory.createLineString(coordinates(g, 0, g.xyLength() / 2));
      case GeometryType.Polygon -> polygon(g);
      case GeometryType.MultiPoint -> multiPoint(g);
      case GeometryType.MultiLineString -> factory.createMultiLineString(lines(g));
      case GeometryType.MultiPolygon -> {
        Polygon[] parts = new Polygon[g.partsLength()];
        for (int i = 0; i < parts.length; i++) {
          parts[i] = (Polygon) geometry(g.parts(i), GeometryType.Polygon, depth + 1);
        }
        yield factory.createMultiPolygon(parts);
      }
      case GeometryType.GeometryCollection -> {
        Geometry[] parts = new Geometry[g.partsLength()];
        for (int i = 0; i < parts.length; i++) {
          parts[i] = geometry(g.parts(i), GeometryType.Unknown, depth + 1);
        }
        yield factory.createGeometryCollection(parts);
      }
      default ->
          throw new IllegalArgumentException(
              "geometry type "
                  + (t >= 0 && t < GeometryType.names.length ? GeometryType.names[t] : "code " + t)
                  + " is not supported");
    };
  }

  private Point point(org.wololo.flatgeobuf.generated.Geometry g) {
    return g.xyLength() == 0 ? factory.createPoint() : factory.createPoint(coordinates(g, 0, 1)[0]);
  }

  private Geometry multiPoint(org.wololo.flatgeobuf.generated.Geometry g) {
    return factory.createMultiPointFromCoords(coordinates(g, 0, g.xyLength() / 2));
  }

  private Polygon polygon(org.wololo.flatgeobuf.generated.Geometry g) {
    LineString[] rings = lines(g);
    if (rings.length == 0) {
      return factory.createPolygon();
    }
    LinearRing[] holes = new LinearRing[rings.length - 1];
    for (int i = 1; i < rings.length; i++) {
      holes[i - 1] = ring(rings[i]);
    }
    return factory.createPolygon(ring(rings[0]), holes);
  }

  private LinearRing ring(LineString line) {
    Coordinate[] coords = line.getCoordinates();
    if (coords.length > 0 && !coords[0].equals2D(coords[coords.length - 1])) {
      // Closed as the GeoJSON reader closes it, so that a file and its conversion agree.
      coords = java.util.Arrays.copyOf(coords, coords.length + 1);
      coords[coords.length - 1] = coords[0].copy();
      ringsClosed++;
    }
    if (coords.length > 0 && coords.length < 4) {
      throw new IllegalArgumentException("a polygon ring has " + coords.length + " positions");
    }
    return factory.createLinearRing(coords);
  }

  /** The parts of a line string or ring list, split at {@code ends}. */
  private LineString[] lines(org.wololo.flatgeobuf.generated.Geometry g) {
    int points = g.xyLength() / 2;
    int parts = g.endsLength();
    if (parts == 0) {
      return points == 0
          ? new LineString[0]
          : new LineString[] {factory.createLineString(coordinates(g, 0, points))};
    }
    LineString[] out = new LineString[parts];
    int start = 0;
    for (int i = 0; i < parts; i++) {
      long end = g.ends(i);
      if (end < start || end > points) {
        throw new IllegalArgumentException("a part ending at point " + end + " of " + points);
      }
      out[i] = factory.createLineString(coordinates(g, start, (int) end));
      start = (int) end;
    }
    return out;
  }

  private static Coordinate[] coordinates(
      org.wololo.flatgeobuf.generated.Geometry g, int from, int to) {
    Coordinate[] out = new Coordinate[to - from];
    for (int i = from; i < to; i++) {
      double x = g.xy(2 * i);
      double y = g.xy(2 * i + 1);
      if (!Double.isFinite(x) || !Double.isFinite(y)) {
        throw new IllegalArgumentException("a non-finite coordinate (" + x + ", " + y + ")");
      }
      out[i - from] = new Coordinate(x, y);
    }
    return out;
  }
}
