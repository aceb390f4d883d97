package io.tilebeam.codec.tiff;

import java.io.IOException;

/** TIFF's LZW (MSB-first codes of 9 to 12 bits, early change, clear code 256, end code 257). */
final class Lzw {

  private static final int CLEAR = 256;
  private static final int END = 257;

  private Lzw() {}

  /**
   * Decodes a block into {@code out}, stopping at the end code or at the input's end; returns the
   * bytes written.
   *
   * @throws IOException when the codes are damaged or decode to more than {@code out} holds
   */
  static int decode(byte[] in, byte[] out) throws IOException {
    int expected = out.length;
    int n = 0;
    // The table: each entry is its prefix entry plus one byte; strings are rebuilt backwards.
    int[] prefix = new int[4096];
    byte[] last = new byte[4096];
    int[] length = new int[4096];
    for (int i = 0; i < 256; i++) {
      last[i] = (byte) i;
      length[i] = 1;
      prefix[i] = -1;
    }
    int next = 258;
    int width = 9;
    int previous = -1;
    long bits = 0;
    int held = 0;
    int at = 0;
    byte[] string = new byte[4096];
    while (true) {
      while (held < width && at < in.length) {
        bits = (bits << 8) | (in[at++] & 0xFF);
        held += 8;
      }
      if (held < width) {
        break;
      }
      int code = (int) ((bits >>> (held - width)) & ((1 << width) - 1));
      held -= width;
      if (code == END) {
        break;
      }
      if (code == CLEAR) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      int entry;
      byte first;
      if (code < next && (code < 256 || code > END)) {
        entry = code;
      } else if (code == next && previous >= 0) {
        entry = -1;
      } else {
        throw new IOException("an LZW TIFF block is damaged (code " + code + ")");
      }
      int len;
      if (entry >= 0) {
        len = length[entry];
        for (int e = entry, k = len - 1; k >= 0; e = prefix[e], k--) {
          string[k] = last[e];
        }
      } else {
        // The code being defined: the previous string plus its own first byte.
        len = length[previous] + 1;
        for (int e = previous, k = len - 2; k >= 0; e = prefix[e], k--) {
          string[k] = last[e];
        }
        string[len - 1] = string[0];
      }
      first = string[0];
      if (len > expected - n) {
        throw new IOException(
            "an LZW TIFF block decompresses to more than the " + expected + " bytes it declares");
      }
      System.arraycopy(string, 0, out, n, len);
      n += len;
      if (previous >= 0 && next < 4096) {
        prefix[next] = previous;
        last[next] = first;
        length[next] = length[previous] + 1;
        next++;
      }
      previous = code;
      // Early change: the width grows one code before the table fills it.
      if (next + 1 >= (1 << width) && width < 12) {
        width++;
      }
    }
    return n;
  }
}
