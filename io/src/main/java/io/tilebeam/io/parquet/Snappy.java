package io.tilebeam.io.parquet;

import java.io.IOException;

/**
 * Snappy decompression (raw format, as Parquet stores its pages): a varint of the uncompressed
 * length, then literals and back-references. Parquet's most common codec; reading it here saves a
 * native library.
 */
final class Snappy {

  private Snappy() {}

  /**
   * The uncompressed bytes of {@code in[from, to)}.
   *
   * @throws IOException when the bytes are not valid Snappy
   */
  static byte[] decompress(byte[] in, int from, int to) throws IOException {
    int pos = from;
    long length = 0;
    for (int shift = 0; ; shift += 7) {
      if (pos >= to || shift > 28) {
        throw new IOException("snappy: bad length header");
      }
      int b = in[pos++] & 0xff;
      length |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    if (length > Integer.MAX_VALUE - 16) {
      throw new IOException("snappy: " + length + " bytes is too large a page");
    }
    byte[] out = new byte[(int) length];
    int o = 0;
    while (pos < to) {
      int tag = in[pos++] & 0xff;
      int kind = tag & 3;
      if (kind == 0) {
        int n = tag >>> 2;
        if (n >= 60) {
          int bytes = n - 59;
          if (pos + bytes > to) {
            throw new IOException("snappy: truncated literal length");
          }
          n = 0;
          for (int i = 0; i < bytes; i++) {
            n |= (in[pos++] & 0xff) << (8 * i);
          }
        }
        n += 1;
        if (n <= 0 || pos + n > to || o + n > out.length) {
          throw new IOException("snappy: a literal runs past its bounds");
        }
        System.arraycopy(in, pos, out, o, n);
        pos += n;
        o += n;
        continue;
      }
      int n;
      int offset;
      if (kind == 1) {
        if (pos >= to) {
          throw new IOException("snappy: truncated copy");
        }
        n = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | (in[pos++] & 0xff);
      } else if (kind == 2) {
        if (pos + 2 > to) {
          throw new IOException("snappy: truncated copy");
        }
        n = (tag >>> 2) + 1;
        offset = (in[pos] & 0xff) | (in[pos + 1] & 0xff) << 8;
        pos += 2;
      } else {
        if (pos + 4 > to) {
          throw new IOException("snappy: truncated copy");
        }
        n = (tag >>> 2) + 1;
        offset =
            (in[pos] & 0xff)
                | (in[pos + 1] & 0xff) << 8
                | (in[pos + 2] & 0xff) << 16
                | (in[pos + 3] & 0xff) << 24;
        pos += 4;
      }
      if (offset <= 0 || offset > o || o + n > out.length) {
        throw new IOException("snappy: a copy reaches outside the output");
      }
      // Copies may overlap their own output (a run): byte by byte.
      for (int i = 0; i < n; i++) {
        out[o + i] = out[o - offset + i];
      }
      o += n;
    }
    if (o != out.length) {
      throw new IOException("snappy: " + o + " bytes decoded, the header says " + out.length);
    }
    return out;
  }
}
