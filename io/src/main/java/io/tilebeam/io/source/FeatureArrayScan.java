package io.tilebeam.io.source;

import java.io.IOException;
import java.io.PushbackInputStream;

/**
 * Finds where the elements of a JSON array start and where the commas between them are, from the
 * array's bytes alone: a scan of brackets, strings and commas, with no token built and nothing
 * held. A FeatureCollection's features array is most of its file (hundreds of megabytes for a
 * country layer), and cutting it into parts by parsing it cost a tenth of the time of reading the
 * features themselves.
 *
 * <p>The scan checks only the array's own level: a comma with no element before it (a leading,
 * doubled or trailing comma) is corrupt JSON here. What lies inside an element, and an element
 * whose brackets do not match, is left to the strict parser each part is read with: the parts cover
 * the array's elements and the commas between them are commas, so the array is valid JSON exactly
 * when every part parses as a sequence of values. UTF-8 only: bytes of multi-byte characters never
 * look like a bracket, quote or backslash.
 */
final class FeatureArrayScan {

  /** What the scan reports, in the order of the bytes. */
  interface Elements {
    /** An element starts at byte {@code at}. */
    void element(long at);

    /** The comma after an element is at byte {@code at}. */
    void separator(long at);

    /** The array's closing bracket is at byte {@code at}. */
    void end(long at);
  }

  /** The most the scan reads at once, and so the least pushback a stream given to it must allow. */
  static final int BLOCK = 1 << 16;

  private FeatureArrayScan() {}

  /**
   * Scans the array whose opening bracket is the stream's first byte, which is byte {@code base} of
   * the file, to its closing bracket. The bytes read past the bracket are pushed back, so the
   * stream goes on with what follows the array ({@code in} must allow a pushback of {@link #BLOCK}
   * bytes).
   *
   * @return the file offset just past the closing bracket
   * @throws SourceFormatException when the stream does not start with {@code [}, a comma stands
   *     where an element should, or the array is not closed before the stream ends ({@code path}
   *     and the byte are named)
   */
  static long scan(PushbackInputStream in, long base, String path, Elements out)
      throws IOException {
    byte[] block = new byte[BLOCK];
    int depth = -1; // -1 before the opening bracket, 0 at the array's own level
    int string = JsonBytes.OUTSIDE;
    // At the array's level: whether an element has started since the last comma (or the start).
    boolean element = false;
    long lastComma = -1;
    // Byte i of the block is byte at + i of the file.
    long at = base;
    for (int length = in.read(block); length >= 0; at += length, length = in.read(block)) {
      for (int i = 0; i < length; i++) {
        int b = block[i];
        if (string != JsonBytes.OUTSIDE) {
          string = JsonBytes.inString(string, b);
          continue;
        }
        if (depth > 0) {
          // Inside an element: most of its bytes are digits, commas and whitespace.
          if (JsonBytes.STRUCTURAL[b & 0xff]) {
            switch (b) {
              case '"' -> string = JsonBytes.IN_STRING;
              case '{', '[' -> depth++;
              default -> depth--;
            }
          }
          continue;
        }
        long offset = at + i;
        if (depth < 0) {
          if (b != '[') {
            throw new SourceFormatException(
                path + ": corrupt JSON at byte " + offset + ": the features array does not start",
                null);
          }
          depth = 0;
          continue;
        }
        switch (b) {
          case ' ', '\n', '\r', '\t' -> {}
          case ',' -> {
            if (!element) {
              throw new SourceFormatException(
                  path + ": corrupt JSON at byte " + offset + ": a comma where a feature should be",
                  null);
            }
            out.separator(offset);
            element = false;
            lastComma = offset;
          }
          case ']' -> {
            if (!element && lastComma >= 0) {
              throw new SourceFormatException(
                  path + ": corrupt JSON at byte " + lastComma + ": a comma after the last feature",
                  null);
            }
            out.end(offset);
            in.unread(block, i + 1, length - i - 1);
            return offset + 1;
          }
          default -> {
            if (!element) {
              element = true;
              out.element(offset);
            }
            if (b == '"') {
              string = JsonBytes.IN_STRING;
            } else if (b == '{' || b == '[') {
              depth++;
            }
            // A stray closing bracket at this level stays in its element, whose parser finds it.
          }
        }
      }
    }
    throw new SourceFormatException(
        path + ": the features array at byte " + base + " is not closed before the file ends",
        null);
  }
}
