package io.tilebeam.io.source;

/**
 * What scans of a JSON file's bytes that build no token need to know ({@link FeatureArrayScan},
 * {@link JsonLimits#valueLength}): which bytes change their state inside an object or array, and
 * where a string ends. UTF-8 only: the bytes of multi-byte characters are never a quote, bracket or
 * backslash.
 */
final class JsonBytes {

  /** Outside a string. */
  static final int OUTSIDE = 0;

  /** Inside a string. */
  static final int IN_STRING = 1;

  /** Inside a string, just after a backslash: the next byte is escaped. */
  static final int ESCAPED = 2;

  /**
   * The bytes that change a scan inside an object or array, outside its strings: quotes and
   * brackets. Most of a GeoJSON file is digits, commas and whitespace.
   */
  static final boolean[] STRUCTURAL = new boolean[256];

  static {
    for (char c : "\"{}[]".toCharArray()) {
      STRUCTURAL[c] = true;
    }
  }

  private JsonBytes() {}

  /**
   * Where a scan inside a string ({@link #IN_STRING} or {@link #ESCAPED}) is after byte {@code b}:
   * {@link #OUTSIDE} after the closing quote.
   */
  static int inString(int state, int b) {
    if (state == ESCAPED) {
      return IN_STRING;
    }
    return b == '\\' ? ESCAPED : b == '"' ? OUTSIDE : IN_STRING;
  }
}
