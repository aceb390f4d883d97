package io.tilebeam.io.sink;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Splits a {@code multipart/related} body (RFC 2046) into its parts, for {@link GcsStandIn}. */
final class MultipartBody {

  /** One part: its content type and body bytes. */
  record Part(String contentType, byte[] body) {}

  private MultipartBody() {}

  /** The raw parts (headers and body) between the boundaries. */
  static List<byte[]> split(byte[] body, String boundary) {
    byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    List<byte[]> parts = new ArrayList<>();
    int at = indexOf(body, delimiter, 0);
    while (at >= 0) {
      int start = at + delimiter.length;
      if (start + 1 < body.length && body[start] == '-' && body[start + 1] == '-') {
        break; // the closing delimiter
      }
      start = skipLineBreak(body, start);
      int next = indexOf(body, delimiter, start);
      if (next < 0) {
        break;
      }
      int end = next;
      // The line break before a delimiter belongs to the delimiter.
      if (end >= 2 && body[end - 2] == '\r' && body[end - 1] == '\n') {
        end -= 2;
      } else if (end >= 1 && body[end - 1] == '\n') {
        end -= 1;
      }
      parts.add(Arrays.copyOfRange(body, start, end));
      at = next;
    }
    return parts;
  }

  /** Separates a raw part's headers from its body. */
  static Part parse(byte[] raw) {
    int headersEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
    int bodyStart = headersEnd + 4;
    if (headersEnd < 0) {
      headersEnd = indexOf(raw, "\n\n".getBytes(StandardCharsets.ISO_8859_1), 0);
      bodyStart = headersEnd + 2;
    }
    if (headersEnd < 0) {
      return new Part(null, raw);
    }
    String contentType = null;
    for (String line : new String(raw, 0, headersEnd, StandardCharsets.ISO_8859_1).split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0
          && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals("content-type")) {
        contentType = line.substring(colon + 1).trim();
      }
    }
    return new Part(contentType, Arrays.copyOfRange(raw, bodyStart, raw.length));
  }

  private static int skipLineBreak(byte[] b, int at) {
    if (at < b.length && b[at] == '\r') {
      at++;
    }
    if (at < b.length && b[at] == '\n') {
      at++;
    }
    return at;
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
