package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.Serializable;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * A column of a PostGIS source and how its values become JSON property values: numbers as numbers
 * (a {@code real} as the shortest decimal that reads back as it), booleans, text as strings, json
 * and jsonb as their JSON, dates and times as PostgreSQL prints them in UTC, arrays as JSON arrays.
 *
 * @param name the column name
 * @param type the PostgreSQL type name ({@code int4}, {@code _text} for a text array, ...)
 */
public record PostGisColumn(String name, String type) implements Serializable {

  private static final long serialVersionUID = 1L;

  private static final Set<String> SCALARS =
      Set.of(
          "int2",
          "int4",
          "int8",
          "float4",
          "float8",
          "numeric",
          "bool",
          "text",
          "varchar",
          "bpchar",
          "name",
          "uuid",
          "citext",
          "json",
          "jsonb",
          "date",
          "time",
          "timetz",
          "timestamp",
          "timestamptz");

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** Whether values of this type can be properties. */
  static boolean readable(String type) {
    String element = type.startsWith("_") ? type.substring(1) : type;
    return SCALARS.contains(element) && !(type.startsWith("_") && element.startsWith("json"));
  }

  /** Whether a column of this type can hold feature ids. */
  static boolean idType(String type) {
    return Set.of("int2", "int4", "int8", "text", "varchar", "bpchar", "uuid", "citext")
        .contains(type);
  }

  /**
   * The value in column {@code index} of the current row; JSON null for SQL NULL.
   *
   * @throws IllegalArgumentException when the value cannot be JSON (a NaN, malformed json)
   */
  JsonNode value(ResultSet row, int index) throws SQLException {
    if (type.startsWith("_")) {
      Array array = row.getArray(index);
      if (array == null) {
        return JSON.nullNode();
      }
      ArrayNode out = JSON.arrayNode();
      for (Object element : (Object[]) array.getArray()) {
        out.add(element(element));
      }
      return out;
    }
    JsonNode v =
        switch (type) {
          case "int2", "int4" -> JSON.numberNode(row.getInt(index));
          case "int8" -> JSON.numberNode(row.getLong(index));
          case "float4" -> JSON.numberNode(new BigDecimal(Float.toString(row.getFloat(index))));
          case "float8" -> finite(row.getDouble(index));
          case "numeric" -> {
            BigDecimal d = row.getBigDecimal(index);
            yield d == null ? JSON.nullNode() : JSON.numberNode(d);
          }
          case "bool" -> JSON.booleanNode(row.getBoolean(index));
          case "json", "jsonb" -> json(row.getString(index));
          default -> {
            String s = row.getString(index);
            yield s == null ? JSON.nullNode() : JSON.textNode(s);
          }
        };
    return row.wasNull() ? JSON.nullNode() : v;
  }

  private JsonNode element(Object e) {
    if (e == null) {
      return JSON.nullNode();
    }
    if (e instanceof Short || e instanceof Integer || e instanceof Long) {
      return JSON.numberNode(((Number) e).longValue());
    } else if (e instanceof Float f) {
      return JSON.numberNode(new BigDecimal(Float.toString(f)));
    } else if (e instanceof Double d) {
      return finite(d);
    } else if (e instanceof BigDecimal d) {
      return JSON.numberNode(d);
    } else if (e instanceof Boolean b) {
      return JSON.booleanNode(b);
    }
    return JSON.textNode(e.toString());
  }

  private JsonNode finite(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException(
          "column '" + name + "' holds " + d + ", which JSON cannot hold");
    }
    return JSON.numberNode(d);
  }

  private JsonNode json(String text) {
    if (text == null) {
      return JSON.nullNode();
    }
    try {
      return GeoJsonFeatures.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("column '" + name + "' is not JSON", e);
    }
  }
}
