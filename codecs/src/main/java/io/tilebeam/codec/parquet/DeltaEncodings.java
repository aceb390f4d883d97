package io.tilebeam.codec.parquet;

import java.io.IOException;

/**
 * Parquet's delta encodings and byte stream split, as writers use them in data page v2 (DuckDB,
 * Arrow, parquet-mr): {@code DELTA_BINARY_PACKED} (integers as bit-packed deltas in blocks of
 * miniblocks), {@code DELTA_LENGTH_BYTE_ARRAY} (lengths so, then the bytes), {@code
 * DELTA_BYTE_ARRAY} (each string as a prefix of the one before and a suffix) and {@code
 * BYTE_STREAM_SPLIT} (the k-th bytes of all values together). Every count a header states is
 * checked against the values the page holds and the bytes left before anything is allocated.
 */
final class DeltaEncodings {

  /** A block larger than this many values is not one any writer makes (they use 128). */
  private static final long MOST_BLOCK_VALUES = 1 << 16;

  private DeltaEncodings() {}

  /** Where a decoder stopped in its bytes. */
  static final class Cursor {
    int pos;
    final int end;

    Cursor(int pos, int end) {
      this.pos = pos;
      this.end = end;
    }
  }

  /**
   * {@code count} integers of {@code DELTA_BINARY_PACKED}, 32-bit ({@code wide} false: sums wrap as
   * ints) or 64-bit.
   *
   * @throws IOException when the header or blocks are damaged or hold another count
   */
  static long[] binaryPacked(byte[] data, Cursor at, int count, boolean wide) throws IOException {
    long blockSize = uvarint(data, at);
    long miniblocks = uvarint(data, at);
    long total = uvarint(data, at);
    long value = zigzag(uvarint(data, at));
    if (blockSize <= 0
        || blockSize > MOST_BLOCK_VALUES
        || miniblocks <= 0
        || blockSize % miniblocks != 0
        || (blockSize / miniblocks) % 8 != 0) {
      throw new IOException(
          "DELTA_BINARY_PACKED blocks of "
              + blockSize
              + " values in "
              + miniblocks
              + " miniblocks");
    }
    if (total != count) {
      throw new IOException(
          "DELTA_BINARY_PACKED holds " + total + " values where the page has " + count);
    }
    long[] out = new long[count];
    if (count == 0) {
      return out;
    }
    out[0] = value;
    int n = 1;
    int perMini = (int) (blockSize / miniblocks);
    while (n < count) {
      long minDelta = zigzag(uvarint(data, at));
      if (miniblocks > at.end - at.pos) {
        throw new IOException("DELTA_BINARY_PACKED bit widths run past the page");
      }
      int widthsAt = at.pos;
      at.pos += (int) miniblocks;
      for (int m = 0; m < miniblocks && n < count; m++) {
        int width = data[widthsAt + m] & 0xff;
        if (width > 64) {
          throw new IOException("DELTA_BINARY_PACKED bit width " + width);
        }
        long bytes = (long) perMini * width / 8;
        // The last miniblock should be padded to its full length; a writer that cut it after its
        // last value is read as far as that value.
        long needed = ((long) Math.min(perMini, count - n) * width + 7) / 8;
        if (needed > at.end - at.pos) {
          throw new IOException("DELTA_BINARY_PACKED miniblock runs past the page");
        }
        bytes = Math.min(bytes, at.end - at.pos);
        for (int i = 0; i < perMini && n < count; i++) {
          long delta = unpack(data, at.pos, i, width) + minDelta;
          value = wide ? value + delta : (int) (value + delta);
          out[n++] = value;
        }
        at.pos += (int) bytes;
      }
    }
    return out;
  }

  /** The {@code i}-th value of {@code width} bits, least significant bit first, from {@code at}. */
  private static long unpack(byte[] data, int at, int i, int width) {
    if (width == 0) {
      return 0;
    }
    long bit = (long) i * width;
    long v = 0;
    for (int got = 0; got < width; ) {
      int byteAt = at + (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      int take = Math.min(8 - shift, width - got);
      long part = ((data[byteAt] & 0xff) >>> shift) & ((1 << take) - 1);
      v |= part << got;
      got += take;
      bit += take;
    }
    return v;
  }

  /**
   * {@code count} byte strings of {@code DELTA_LENGTH_BYTE_ARRAY}: their lengths, then their bytes.
   *
   * @throws IOException when the lengths do not fit the bytes
   */
  static byte[][] lengthByteArray(byte[] data, Cursor at, int count) throws IOException {
    long[] lengths = binaryPacked(data, at, count, false);
    byte[][] out = new byte[count][];
    for (int i = 0; i < count; i++) {
      if (lengths[i] < 0 || lengths[i] > at.end - at.pos) {
        throw new IOException("a DELTA_LENGTH_BYTE_ARRAY value runs past the page");
      }
      out[i] = java.util.Arrays.copyOfRange(data, at.pos, at.pos + (int) lengths[i]);
      at.pos += (int) lengths[i];
    }
    return out;
  }

  /**
   * {@code count} byte strings of {@code DELTA_BYTE_ARRAY}: each the first {@code prefix} bytes of
   * the one before, then its own suffix.
   *
   * @throws IOException when a prefix is longer than the value before it, or the bytes end
   */
  static byte[][] byteArray(byte[] data, Cursor at, int count) throws IOException {
    long[] prefixes = binaryPacked(data, at, count, false);
    byte[][] suffixes = lengthByteArray(data, at, count);
    byte[][] out = new byte[count][];
    byte[] previous = new byte[0];
    for (int i = 0; i < count; i++) {
      long prefix = prefixes[i];
      if (prefix < 0 || prefix > previous.length) {
        throw new IOException(
            "a DELTA_BYTE_ARRAY prefix of " + prefix + " bytes of a value of " + previous.length);
      }
      byte[] v = new byte[(int) prefix + suffixes[i].length];
      System.arraycopy(previous, 0, v, 0, (int) prefix);
      System.arraycopy(suffixes[i], 0, v, (int) prefix, suffixes[i].length);
      out[i] = v;
      previous = v;
    }
    return out;
  }

  /**
   * {@code count} values of {@code width} bytes in {@code BYTE_STREAM_SPLIT}, put back together as
   * PLAIN encodes them.
   *
   * @throws IOException when the page holds fewer bytes
   */
  static byte[] joinStreams(byte[] data, int from, int to, int count, int width)
      throws IOException {
    long bytes = (long) count * width;
    if (width <= 0 || bytes > to - from) {
      throw new IOException(
          "BYTE_STREAM_SPLIT of " + count + " values of " + width + " bytes in " + (to - from));
    }
    byte[] out = new byte[(int) bytes];
    for (int k = 0; k < width; k++) {
      int stream = from + k * count;
      for (int i = 0; i < count; i++) {
        out[i * width + k] = data[stream + i];
      }
    }
    return out;
  }

  private static long uvarint(byte[] data, Cursor at) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at.pos >= at.end) {
        throw new IOException("a delta-encoded header runs past the page");
      }
      int b = data[at.pos++] & 0xff;
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("a delta-encoded varint is too long");
  }

  private static long zigzag(long n) {
    return (n >>> 1) ^ -(n & 1);
  }
}
