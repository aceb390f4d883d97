package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The scan that finds where a JSON value ends, holding none of its bytes. */
class JsonLimitsTest {

  /** The scan reads in blocks of this many bytes. */
  private static final int BLOCK = 1 << 16;

  private static long length(String json) throws IOException {
    return JsonLimits.valueLength(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void findsTheEndOfEachKindOfValue() throws IOException {
    assertEquals(10, length("  [1, [2]] , 3"));
    assertEquals(13, length("{\"a\":\"}]\\\"x\"}  ,"));
    assertEquals(4, length("12.5, 6"));
    assertEquals(5, length(" true]"));
    assertEquals(6, length(" \"a,b\" 1"));
    assertEquals(-1, length("[1, [2]"));
    assertEquals(-1, length("\"open"));
  }

  /**
   * Values whose end, or an escape inside a string, falls on the boundary between two blocks the
   * scan reads, for every offset around it: the state carries over from one block to the next.
   */
  @Test
  void carriesItsStateAcrossBlocks() throws IOException {
    for (int shift = -3; shift <= 3; shift++) {
      // A string whose escaped quote straddles the boundary, then the array's end.
      String head = "[\"" + "x".repeat(BLOCK - 3 + shift);
      String json = head + "\\\"]\"]";
      assertEquals(json.length(), length(json + ", 1"), "escape at " + shift);
      // An array closed right at the boundary.
      String closed = "[" + "1,".repeat((BLOCK + shift) / 2) + "2]";
      assertEquals(closed.length(), length(closed + " ]"), "end at " + shift);
    }
  }

  /** The stream hands over fewer bytes than asked each time, as a network stream may. */
  @Test
  void readsShortBlocks() throws IOException {
    String json = "{\"k\":[\"]\",{\"n\":\"\\\\\"}]}";
    InputStream dribble =
        new ByteArrayInputStream((json + "  ,").getBytes(StandardCharsets.UTF_8)) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, 3));
          }
        };
    assertEquals(json.length(), JsonLimits.valueLength(dribble));
  }
}
