package io.tilebeam.codec.tiff;

import io.tilebeam.codec.compress.Decompress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A TIFF block's bytes made into samples: decoded (none, deflate, LZW, PackBits, ZSTD, JPEG), the
 * predictor undone row by row over the block's full width (differences restart at every block's
 * row, not at the image's), and each sample read in the file's byte order as a float.
 */
final class BlockCodec {

  private BlockCodec() {}

  /**
   * A block's bytes as stored before compression: at least its {@code rows} rows that hold image
   * data, at most the whole block its layout declares ({@link TiffDirectory#blockBytes}).
   *
   * @throws IOException when the block is damaged, or decodes to fewer or more bytes than that
   */
  static byte[] decode(TiffDirectory d, byte[] stored, int rows, int bands) throws IOException {
    long least = d.rowBytes() * rows;
    int most = (int) d.blockBytes();
    String what = "a TIFF block";
    int n;
    byte[] out;
    switch (d.compression()) {
      case TiffDirectory.NONE -> {
        out = stored;
        n = stored.length;
      }
      case TiffDirectory.DEFLATE, TiffDirectory.DEFLATE_OLD -> {
        out = new byte[most];
        n = Decompress.inflate(stored, 0, stored.length, out, what);
      }
      case TiffDirectory.ZSTD -> {
        out = new byte[most];
        n = Decompress.zstd(stored, 0, stored.length, out, what);
      }
      case TiffDirectory.LZW -> {
        out = new byte[most];
        n = Lzw.decode(stored, out);
      }
      case TiffDirectory.PACKBITS -> {
        out = new byte[most];
        n = unpack(stored, out);
      }
      case TiffDirectory.JPEG -> {
        out = JpegBlocks.decode(d, stored, rows, bands);
        n = out.length;
      }
      default -> throw new IOException("TIFF compression " + d.compression() + " is not read");
    }
    if (n < least) {
      throw new IOException(
          what + " decodes to " + n + " bytes, fewer than the " + least + " its rows hold");
    }
    return out;
  }

  /** PackBits into {@code out}; more than it holds is an error. */
  private static int unpack(byte[] in, byte[] out) throws IOException {
    int o = 0;
    int i = 0;
    while (i < in.length) {
      int n = in[i++];
      if (n >= 0) {
        int count = Math.min(n + 1, in.length - i);
        need(o, count, out.length);
        System.arraycopy(in, i, out, o, count);
        i += count;
        o += count;
      } else if (n != -128 && i < in.length) {
        byte b = in[i++];
        need(o, 1 - n, out.length);
        java.util.Arrays.fill(out, o, o + 1 - n, b);
        o += 1 - n;
      }
    }
    return o;
  }

  private static void need(int at, int count, int size) throws IOException {
    if (count > size - at) {
      throw new IOException(
          "a PackBits TIFF block decompresses to more than the " + size + " bytes it declares");
    }
  }

  /**
   * The samples of a block of {@code rows} rows, {@code bands} samples a pixel, as floats, the
   * predictor undone.
   */
  static float[] samples(byte[] raw, TiffDirectory d, int bands, int rows, ByteOrder order)
      throws IOException {
    if (d.bitsPerSample() == 1) {
      return bits(raw, d, rows);
    }
    int bytes = d.bitsPerSample() / 8;
    int perRow = d.blockWidth() * bands;
    float[] out = new float[d.blockWidth() * d.blockHeight() * bands];
    ByteBuffer buffer = ByteBuffer.wrap(raw).order(order);
    if (d.predictor() == 3) {
      floatingPoint(raw, d, bands, rows, out);
      return out;
    }
    boolean signed = d.sampleFormat() == 2;
    boolean floating = d.sampleFormat() == 3;
    boolean differenced = d.predictor() == 2;
    if (bytes == 1) {
      bytes(raw, perRow, rows, bands, differenced, d.sampleFormat() == 2, out);
      return out;
    }
    long mask = bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
    long[] left = new long[bands];
    for (int r = 0; r < rows; r++) {
      int rowStart = r * perRow;
      for (int i = 0; i < perRow; i++) {
        int at = (rowStart + i) * bytes;
        long v =
            switch (bytes) {
              case 1 -> raw[at] & 0xFFL;
              case 2 -> buffer.getShort(at) & 0xFFFFL;
              case 4 -> buffer.getInt(at) & 0xFFFFFFFFL;
              default -> buffer.getLong(at);
            };
        if (differenced) {
          // Horizontal differencing: each sample stored as its difference from the same band's
          // sample one pixel left, in the sample's own width (wrapping); a row starts afresh.
          int band = i % bands;
          v = i < bands ? v : (v + left[band]) & mask;
          left[band] = v;
        }
        out[rowStart + i] = value(v, bytes, signed, floating);
      }
    }
    return out;
  }

  /**
   * A mask's bits as 0 and 1, row by row over the block's full width: the first pixel of a byte is
   * its highest bit, and every row starts on a byte.
   */
  private static float[] bits(byte[] raw, TiffDirectory d, int rows) {
    int width = d.blockWidth();
    int rowBytes = (int) d.rowBytes();
    float[] out = new float[width * d.blockHeight()];
    for (int r = 0; r < rows; r++) {
      for (int x = 0; x < width; x++) {
        out[r * width + x] = (raw[r * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
      }
    }
    return out;
  }

  /** The common case, 8-bit samples, without a buffer or a switch a sample. */
  private static void bytes(
      byte[] raw,
      int perRow,
      int rows,
      int bands,
      boolean differenced,
      boolean signed,
      float[] out) {
    for (int r = 0; r < rows; r++) {
      int start = r * perRow;
      if (differenced) {
        for (int i = start + bands; i < start + perRow; i++) {
          raw[i] = (byte) (raw[i] + raw[i - bands]);
        }
      }
      for (int i = start; i < start + perRow; i++) {
        out[i] = signed ? raw[i] : raw[i] & 0xFF;
      }
    }
  }

  private static float value(long v, int bytes, boolean signed, boolean floating) {
    return switch (bytes) {
      case 1 -> signed ? (byte) v : (float) (v & 0xFF);
      case 2 -> signed ? (short) v : (float) (v & 0xFFFF);
      case 4 ->
          floating ? Float.intBitsToFloat((int) v) : signed ? (int) v : (float) (v & 0xFFFFFFFFL);
      default -> floating ? (float) Double.longBitsToDouble(v) : (float) v;
    };
  }

  /**
   * The floating-point predictor (TIFF Technical Note 3): per row, the bytes were split into planes
   * from the most significant byte and each byte stored as its difference from the one {@code
   * bands} bytes before.
   */
  private static void floatingPoint(byte[] raw, TiffDirectory d, int bands, int rows, float[] out)
      throws IOException {
    int bytes = d.bitsPerSample() / 8;
    if (d.sampleFormat() != 3) {
      throw new IOException("TIFF floating-point predictor on samples that are not floats");
    }
    int count = d.blockWidth() * bands;
    int rowBytes = count * bytes;
    byte[] row = new byte[rowBytes];
    for (int r = 0; r < rows; r++) {
      int start = r * rowBytes;
      System.arraycopy(raw, start, row, 0, rowBytes);
      for (int i = bands; i < rowBytes; i++) {
        row[i] = (byte) (row[i] + row[i - bands]);
      }
      for (int k = 0; k < count; k++) {
        long bits = 0;
        for (int b = 0; b < bytes; b++) {
          bits = (bits << 8) | (row[b * count + k] & 0xFF);
        }
        out[r * count + k] =
            bytes == 4 ? Float.intBitsToFloat((int) bits) : (float) Double.longBitsToDouble(bits);
      }
    }
  }
}
