package io.tilebeam.io.source;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The limits that keep one feature of a GeoJSON or GeoJSONSeq source from taking the reader's
 * memory, and what a feature past one gets: it is dead-lettered with its byte offset and the limit
 * it broke, and the features after it are read as usual (a run never fails for one feature). A job
 * may set them per source ({@code source.limits}); set limits enter the layer's work keys, since
 * they decide which features reach the tiles.
 *
 * <p>Coordinates per geometry have no limit of their own: a geometry is bounded by its record (or,
 * in a whole-file GeoJSON, by the heap: a country of a million vertices is an ordinary feature).
 *
 * @param maxStringChars the longest string read (a property's value, an id)
 * @param maxNesting the deepest nesting of arrays and objects read
 * @param maxRecordBytes the longest GeoJSONSeq record (line) read, held whole while it is parsed
 */
public record JsonLimits(int maxStringChars, int maxNesting, int maxRecordBytes)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * The defaults: 20,000,000 characters a string (Jackson's own default; a longer property would be
   * copied into every tile its feature meets), 1,000 levels, 128 MiB a record (a country of over a
   * million vertices at full precision is about 40 MB).
   */
  public static final JsonLimits DEFAULT = new JsonLimits(20_000_000, 1000, 128 << 20);

  /** The longest number read; not a setting: no coordinate or value needs a thousand digits. */
  static final int MAX_NUMBER_CHARS = 1000;

  private static final Map<JsonLimits, ObjectMapper> MAPPERS = new ConcurrentHashMap<>();

  /** Checks every field against the range a reader can honour. */
  public JsonLimits {
    check("maxStringChars", maxStringChars, 1_000, 1_000_000_000);
    check("maxNesting", maxNesting, 16, 10_000);
    check("maxRecordBytes", maxRecordBytes, 1 << 20, 1 << 30);
  }

  private static void check(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new SourceFieldException(
          name,
          Long.toString(value),
          name + " must be in [" + min + ", " + max + "], was " + value,
          null);
    }
  }

  /** Why a feature that broke one of these limits is dead-lettered: the limit and all of them. */
  String broken(StreamConstraintsException e) {
    return "exceeds a reading limit: " + e.getOriginalMessage() + " (" + summary() + ")";
  }

  /** These limits, as a dead letter names them. */
  private String summary() {
    return "tilebeam reads strings of up to "
        + maxStringChars
        + " characters, numbers of up to "
        + MAX_NUMBER_CHARS
        + " characters and "
        + maxNesting
        + " levels of nesting";
  }

  /**
   * The reader of features under these limits (one per distinct limits, shared): NaN and Infinity
   * literals read (common writers emit them; the features holding them are dead-lettered), doubles
   * parsed by the fast parser (correctly rounded, as Double.parseDouble).
   */
  ObjectMapper mapper() {
    return MAPPERS.computeIfAbsent(
        this,
        l -> {
          JsonFactory factory = new JsonFactory();
          factory.setStreamReadConstraints(
              StreamReadConstraints.builder()
                  .maxStringLength(l.maxStringChars())
                  .maxNestingDepth(l.maxNesting())
                  .maxNumberLength(MAX_NUMBER_CHARS)
                  .build());
          return JsonMapper.builder(factory)
              .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
              .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
              .build();
        });
  }

  /**
   * The bytes from the stream's start to the end of the first JSON value in it (leading whitespace
   * included), found by a scan that keeps none of them: strings with their escapes, and the depth
   * of objects and arrays. -1 when the stream ends first.
   */
  static long valueLength(InputStream in) throws IOException {
    // Read in blocks: a value may be most of a file of hundreds of megabytes (a FeatureCollection's
    // features array), and a stream's read of one byte takes a lock each time.
    byte[] block = new byte[1 << 16];
    int depth = 0;
    int string = JsonBytes.OUTSIDE;
    boolean started = false;
    // n: the bytes of the blocks before this one; byte i of the block is byte n + i of the stream.
    long n = 0;
    for (int length = in.read(block); length >= 0; n += length, length = in.read(block)) {
      for (int i = 0; i < length; i++) {
        int b = block[i];
        if (string != JsonBytes.OUTSIDE) {
          string = JsonBytes.inString(string, b);
          if (string == JsonBytes.OUTSIDE && depth == 0) {
            return n + i + 1; // a bare string
          }
          continue;
        }
        if (depth > 0 && !JsonBytes.STRUCTURAL[b & 0xff]) {
          continue; // inside a value: most of its bytes are digits, commas and whitespace
        }
        switch (b) {
          case ' ', '\t', '\r', '\n' -> {
            if (started && depth == 0) {
              return n + i; // the end of a bare number or literal
            }
          }
          case '"' -> {
            string = JsonBytes.IN_STRING;
            started = true;
          }
          case '{', '[' -> {
            depth++;
            started = true;
          }
          case '}', ']' -> {
            if (depth == 0) {
              return n + i; // the array's end after a bare number or literal
            }
            if (--depth == 0) {
              return n + i + 1;
            }
          }
          case ',' -> {
            if (depth == 0) {
              return n + i;
            }
          }
          default -> started = true;
        }
      }
    }
    return started && depth == 0 && string == JsonBytes.OUTSIDE ? n : -1;
  }
}
