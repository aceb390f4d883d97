package io.tilebeam.io.raster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A TIFF block's bytes made into samples: inflated (none, deflate, LZW, PackBits), the predictor
 * undone row by row over the block's full width (differences restart at every block's row, not at
 * the image's), and each sample read in the file's byte order as a float.
 */
final class BlockCodec {

  private BlockCodec() {}

  /** The block's bytes as stored before compression; {@code expected} is their usual length. */
  static byte[] decompress(int compression, byte[] in, int expected) throws IOException {
    return switch (compression) {
      case TiffDirectory.NONE -> in;
      case TiffDirectory.DEFLATE, TiffDirectory.DEFLATE_OLD -> inflate(in, expected);
      case TiffDirectory.LZW -> Lzw.decode(in, expected);
      case TiffDirectory.PACKBITS -> unpack(in, expected);
      default -> throw new IOException("TIFF compression " + compression + " is not read");
    };
  }

  private static byte[] inflate(byte[] in, int expected) throws IOException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(in);
      byte[] out = new byte[expected];
      int n = 0;
      while (n < expected && !inflater.finished()) {
        int got = inflater.inflate(out, n, expected - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n < expected) {
        throw new IOException(
            "a deflated TIFF block ends after " + n + " of " + expected + " bytes");
      }
      return out;
    } catch (DataFormatException e) {
      throw new IOException("a deflated TIFF block is damaged: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  private static byte[] unpack(byte[] in, int expected) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(expected);
    int i = 0;
    while (i < in.length && out.size() < expected) {
      int n = in[i++];
      if (n >= 0) {
        int count = Math.min(n + 1, in.length - i);
        out.write(in, i, count);
        i += count;
      } else if (n != -128 && i < in.length) {
        byte b = in[i++];
        for (int k = 0; k < 1 - n; k++) {
          out.write(b);
        }
      }
    }
    if (out.size() < expected) {
      throw new IOException("a PackBits TIFF block ends after " + out.size() + " bytes");
    }
    return out.toByteArray();
  }

  /**
   * The samples of a block of {@code rows} rows, {@code bands} samples a pixel, as floats, the
   * predictor undone.
   */
  static float[] samples(byte[] raw, TiffDirectory d, int bands, int rows, ByteOrder order)
      throws IOException {
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
