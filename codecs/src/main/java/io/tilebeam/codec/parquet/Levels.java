package io.tilebeam.codec.parquet;

import java.io.IOException;

/**
 * Parquet's RLE / bit-packing hybrid: runs of one repeated value and groups of eight bit-packed
 * values, as definition levels, dictionary indices and (in data page v2) booleans are written.
 */
final class Levels {

  private Levels() {}

  /**
   * Decodes {@code count} values of {@code bitWidth} bits from {@code buf[from, to)} into {@code
   * out}.
   *
   * @throws IOException when the bytes end before the values
   */
  static void decode(byte[] buf, int from, int to, int bitWidth, int[] out, int count)
      throws IOException {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IOException("RLE/bit-packed values of " + bitWidth + " bits");
    }
    if (from < 0 || to > buf.length || from > to) {
      throw new IOException("RLE/bit-packed values outside their page");
    }
    int pos = from;
    int n = 0;
    int valueBytes = (bitWidth + 7) / 8;
    while (n < count) {
      if (pos >= to) {
        throw new IOException("RLE/bit-packed values end after " + n + " of " + count);
      }
      long header = 0;
      for (int shift = 0; ; shift += 7) {
        if (pos >= to || shift > 35) {
          throw new IOException("RLE/bit-packed run header is cut short");
        }
        int b = buf[pos++] & 0xff;
        header |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
      }
      if ((header & 1) == 0) {
        long run = header >>> 1;
        if (pos + valueBytes > to) {
          throw new IOException("RLE run value is cut short");
        }
        int v = 0;
        for (int i = 0; i < valueBytes; i++) {
          v |= (buf[pos++] & 0xff) << (8 * i);
        }
        for (long i = 0; i < run && n < count; i++) {
          out[n++] = v;
        }
      } else {
        long values = (header >>> 1) * 8;
        long bits = values * bitWidth;
        // The last group may be padded past the page's end by some writers: read what is there.
        int bytes = (int) Math.min((bits + 7) / 8, to - pos);
        long bitPos = (long) pos * 8;
        long mask = bitWidth == 32 ? 0xffffffffL : (1L << bitWidth) - 1;
        for (long i = 0; i < values && n < count; i++) {
          long at = bitPos + i * bitWidth;
          int byteAt = (int) (at >>> 3);
          long word = 0;
          for (int k = 0; k < 8 && byteAt + k < pos + bytes; k++) {
            word |= (long) (buf[byteAt + k] & 0xff) << (8 * k);
          }
          out[n++] = (int) ((word >>> (at & 7)) & mask);
        }
        pos += bytes;
      }
    }
  }

  /** The bits needed for values up to {@code max}. */
  static int bitWidth(int max) {
    return 32 - Integer.numberOfLeadingZeros(max);
  }
}
