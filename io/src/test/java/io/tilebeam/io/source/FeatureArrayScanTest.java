package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The scan that finds a JSON array's elements and the commas between them from its bytes alone,
 * checked against Jackson's tokens on arrays made at random (strings holding brackets, commas,
 * quotes and escapes, multi-byte characters, nesting, whitespace everywhere), read through a stream
 * that hands over a few bytes at a time or whole blocks.
 */
class FeatureArrayScanTest {

  /** What a scan reported, each as a kind and a byte offset. */
  private static List<String> scan(byte[] bytes, long base, int most) throws IOException {
    List<String> seen = new ArrayList<>();
    PushbackInputStream in =
        new PushbackInputStream(
            new ByteArrayInputStream(bytes) {
              @Override
              public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, most));
              }
            },
            FeatureArrayScan.BLOCK);
    long end =
        FeatureArrayScan.scan(
            in,
            base,
            "f.geojson",
            new FeatureArrayScan.Elements() {
              @Override
              public void element(long at) {
                seen.add("element " + at);
              }

              @Override
              public void separator(long at) {
                seen.add("comma " + at);
              }

              @Override
              public void end(long at) {
                seen.add("end " + at);
              }
            });
    seen.add("after " + end);
    // The stream goes on with the bytes after the array: what the scan read past it is pushed back.
    assertArrayEquals(
        Arrays.copyOfRange(bytes, (int) (end - base), bytes.length),
        in.readAllBytes(),
        "after the array");
    return seen;
  }

  /** The same from Jackson's parse: each element's first token, the comma after, the bracket. */
  private static List<String> expected(byte[] bytes, long base) throws IOException {
    List<String> seen = new ArrayList<>();
    try (JsonParser p = new JsonFactory().createParser(bytes)) {
      p.nextToken();
      for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
        if (!seen.isEmpty()) {
          int comma = (int) p.currentTokenLocation().getByteOffset();
          while (bytes[comma] != ',') {
            comma--;
          }
          seen.add("comma " + (base + comma));
        }
        seen.add("element " + (base + p.currentTokenLocation().getByteOffset()));
        p.skipChildren();
      }
      long close = p.currentTokenLocation().getByteOffset();
      seen.add("end " + (base + close));
      seen.add("after " + (base + close + 1));
    }
    return seen;
  }

  @Test
  void findsWhatJacksonFindsInRandomArrays() throws IOException {
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      StringBuilder json = new StringBuilder("[");
      int n = random.nextInt(6);
      for (int i = 0; i < n; i++) {
        json.append(space(random)).append(i > 0 ? "," : "").append(space(random));
        value(json, random, 0);
      }
      json.append(space(random)).append("]").append(space(random)).append(", \"crs\": null}");
      byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
      long base = random.nextInt(1000);
      List<String> expected = expected(bytes, base);
      for (int most : new int[] {1, 3, 1 << 16}) {
        assertEquals(expected, scan(bytes, base, most), json + " read " + most + " at a time");
      }
    }
  }

  /** An element of a large array whose escape falls on the scan's block boundary, at each shift. */
  @Test
  void carriesItsStateAcrossBlocks() throws IOException {
    for (int shift = -3; shift <= 3; shift++) {
      String json = "[\"" + "x".repeat((1 << 16) - 3 + shift) + "\\\"],\" , {\"a\":[1]} ]";
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      assertEquals(expected(bytes, 0), scan(bytes, 0, 1 << 16), "shift " + shift);
    }
  }

  @Test
  void refusesCommasWhereElementsShouldBeAndAnArrayNotClosed() {
    for (String json : List.of("[,1]", "[1,,2]", "[1,]", "[1, ]", "{\"a\":1}", "[1, [2]")) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      SourceFormatException e =
          assertThrows(SourceFormatException.class, () -> scan(bytes, 10, 1 << 16), json);
      assertTrue(e.getMessage().startsWith("f.geojson: "), e.getMessage());
      assertTrue(
          e.getMessage().contains("corrupt JSON at byte 1")
              || e.getMessage().contains("is not closed"),
          e.getMessage());
    }
  }

  private static String space(Random random) {
    return " \n\t\r".substring(0, random.nextInt(3)).repeat(random.nextInt(2));
  }

  private static final String[] STRINGS = {
    "", "a", "]", "}", "[{", ",", "\\\"", "\\\\", "\\\\\\\"]", "é,ü", "日本]", "\\u005d", "x\\\\"
  };

  private static void value(StringBuilder json, Random random, int depth) {
    int kind = depth > 4 ? random.nextInt(3) : random.nextInt(5);
    switch (kind) {
      case 0 -> json.append('"').append(STRINGS[random.nextInt(STRINGS.length)]).append('"');
      case 1 -> json.append(random.nextInt(2000) - 1000).append(".25");
      case 2 -> json.append(random.nextBoolean() ? "null" : "true");
      case 3 -> {
        json.append('[');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          json.append(i > 0 ? "," : "").append(space(random));
          value(json, random, depth + 1);
        }
        json.append(']');
      }
      default -> {
        json.append('{');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          json.append(i > 0 ? "," : "")
              .append('"')
              .append(STRINGS[random.nextInt(STRINGS.length)])
              .append(i)
              .append("\":")
              .append(space(random));
          value(json, random, depth + 1);
        }
        json.append('}');
      }
    }
  }
}
