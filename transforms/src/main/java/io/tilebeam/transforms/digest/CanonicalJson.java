package io.tilebeam.transforms.digest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Canonical JSON: object keys sorted by code point, no whitespace, and every number in one form
 * (integers without a point or exponent, other numbers as their shortest plain decimal without
 * trailing zeros, so {@code 1.0}, {@code 1} and {@code 1e0} are all {@code 1}). Strings use JSON's
 * minimal escaping as Jackson writes it.
 */
public final class CanonicalJson {

  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private CanonicalJson() {}

  /** The canonical form of a JSON tree. */
  public static String write(JsonNode node) {
    StringBuilder out = new StringBuilder();
    append(out, node);
    return out.toString();
  }

  /**
   * Parses JSON text into a tree, keeping decimals exact.
   *
   * @throws IllegalArgumentException when the text is not JSON
   */
  public static JsonNode parse(String json) {
    try {
      return MAPPER
          .reader()
          .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The canonical form of a number. */
  public static String number(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.signum() == 0) {
      return "0";
    }
    return stripped.scale() <= 0
        ? stripped.toBigIntegerExact().toString()
        : stripped.toPlainString();
  }

  private static void append(StringBuilder out, JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      names.sort(String::compareTo);
      out.append('{');
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        appendString(out, names.get(i));
        out.append(':');
        append(out, node.get(names.get(i)));
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      Iterator<JsonNode> it = node.elements();
      for (int i = 0; it.hasNext(); i++) {
        if (i > 0) {
          out.append(',');
        }
        append(out, it.next());
      }
      out.append(']');
    } else if (node.isNumber()) {
      out.append(
          node.isIntegralNumber()
              ? node.bigIntegerValue().toString()
              : number(node.decimalValue()));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else {
      appendString(out, node.asText());
    }
  }

  /**
   * Appends {@code s} as a JSON string: quotes, backslashes and control characters escaped (the
   * short forms for backspace, tab, newline, form feed and carriage return, {@code \\u00XX} for the
   * rest), everything else as is. This is the minimal escaping Jackson writes by default.
   */
  public static StringBuilder appendString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04X", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }
}
