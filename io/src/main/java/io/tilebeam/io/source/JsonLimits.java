package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.InputStream;

/**
 * The limits that keep one feature of a GeoJSON or GeoJSONSeq source from taking the reader's
 * memory, and what a feature past one gets: it is dead-lettered with its byte offset and the limit
 * it broke, and the features after it are read as usual (a run never fails for one feature).
 *
 * <ul>
 *   <li>a string (a property's value, an id): {@value #MAX_STRING_CHARS} characters;
 *   <li>nesting of arrays and objects: {@value #MAX_NESTING} levels;
 *   <li>a number: {@value #MAX_NUMBER_CHARS} characters;
 *   <li>a GeoJSONSeq record (a line): {@value #MAX_RECORD_BYTES} bytes, skipped unread beyond that.
 * </ul>
 *
 * <p>Coordinates per geometry have no limit of their own: a geometry is bounded by its record (or,
 * in a whole-file GeoJSON, by the heap: a country of a million vertices is an ordinary feature).
 */
final class JsonLimits {

  /**
   * The longest string read: Jackson's own default. A longer property would be copied into every
   * tile its feature meets.
   */
  static final int MAX_STRING_CHARS = 20_000_000;

  /** The deepest nesting read. */
  static final int MAX_NESTING = 1000;

  /** The longest number read. */
  static final int MAX_NUMBER_CHARS = 1000;

  /**
   * The longest GeoJSONSeq record read, held whole while it is parsed: a country of over a million
   * vertices at full precision is about 40 MB.
   */
  static final int MAX_RECORD_BYTES = 128 << 20;

  /** The limits, as a dead letter names them. */
  static final String SUMMARY =
      "tilebeam reads strings of up to "
          + MAX_STRING_CHARS
          + " characters, numbers of up to "
          + MAX_NUMBER_CHARS
          + " characters and "
          + MAX_NESTING
          + " levels of nesting";

  private JsonLimits() {}

  /** Jackson's constraints set to these limits. */
  static JsonFactory apply(JsonFactory factory) {
    factory.setStreamReadConstraints(
        StreamReadConstraints.builder()
            .maxStringLength(MAX_STRING_CHARS)
            .maxNestingDepth(MAX_NESTING)
            .maxNumberLength(MAX_NUMBER_CHARS)
            .build());
    return factory;
  }

  /**
   * The bytes from the stream's start to the end of the first JSON value in it (leading whitespace
   * included), found by a scan that keeps none of them: strings with their escapes, and the depth
   * of objects and arrays. -1 when the stream ends first.
   */
  static long valueLength(InputStream in) throws IOException {
    long n = 0;
    int depth = 0;
    boolean inString = false;
    boolean escaped = false;
    boolean started = false;
    for (int b = in.read(); b >= 0; b = in.read()) {
      n++;
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (b == '\\') {
          escaped = true;
        } else if (b == '"') {
          inString = false;
          if (depth == 0) {
            return n; // a bare string
          }
        }
        continue;
      }
      switch (b) {
        case ' ', '\t', '\r', '\n' -> {
          if (started && depth == 0) {
            return n - 1; // the end of a bare number or literal
          }
        }
        case '"' -> {
          inString = true;
          started = true;
        }
        case '{', '[' -> {
          depth++;
          started = true;
        }
        case '}', ']' -> {
          if (depth == 0) {
            return n - 1; // the array's end after a bare number or literal
          }
          if (--depth == 0) {
            return n;
          }
        }
        case ',' -> {
          if (depth == 0) {
            return n - 1;
          }
        }
        default -> started = true;
      }
    }
    return started && depth == 0 && !inString ? n : -1;
  }
}
