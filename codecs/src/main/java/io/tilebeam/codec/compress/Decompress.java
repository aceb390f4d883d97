package io.tilebeam.codec.compress;

import io.airlift.compress.Decompressor;
import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import org.brotli.dec.BrotliInputStream;

/**
 * Bounded decompression of the codecs sources use (Parquet pages, TIFF blocks): zlib, gzip, ZSTD,
 * LZ4 (raw blocks and Hadoop's framing), Snappy and Brotli; ZSTD, LZ4 and Snappy through
 * aircompressor, Brotli through Google's decoder (both pure Java). Each writes into a buffer the
 * caller sized from what the file declares (and checked first), never more: data that would
 * decompress past it is an error, not a larger allocation, so a page or block that lies about its
 * size, or a decompression bomb, costs at most the buffer.
 *
 * <p>Each method returns how many bytes it wrote; the caller compares them with what it expected.
 */
public final class Decompress {

  private Decompress() {}

  /** Thrown when compressed bytes are damaged or decompress to more than their buffer. */
  public static final class CorruptDataException extends IOException {
    private static final long serialVersionUID = 1L;

    CorruptDataException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * zlib data (deflate as TIFF and PNG store it) of {@code in[from, from + length)} into {@code
   * out}.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int inflate(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(in, from, length);
      int n = 0;
      while (n < out.length && !inflater.finished()) {
        int got = inflater.inflate(out, n, out.length - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          return n;
        }
        n += got;
      }
      if (!inflater.finished() && inflater.inflate(new byte[1]) > 0) {
        throw tooLong(what, out.length);
      }
      return n;
    } catch (DataFormatException e) {
      throw new CorruptDataException(what + " is damaged deflate data: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  /**
   * gzip data (one member or several) into {@code out}.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int gunzip(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    try (GZIPInputStream z = new GZIPInputStream(new ByteArrayInputStream(in, from, length))) {
      int n = z.readNBytes(out, 0, out.length);
      if (z.read() >= 0) {
        throw tooLong(what, out.length);
      }
      return n;
    } catch (java.util.zip.ZipException | java.io.EOFException e) {
      throw new CorruptDataException(what + " is damaged gzip data: " + e.getMessage(), e);
    }
  }

  /**
   * Brotli into {@code out} (Google's decoder, {@code org.brotli:dec}).
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int brotli(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    try (BrotliInputStream b = new BrotliInputStream(new ByteArrayInputStream(in, from, length))) {
      int n = b.readNBytes(out, 0, out.length);
      if (b.read() >= 0) {
        throw tooLong(what, out.length);
      }
      return n;
    } catch (CorruptDataException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptDataException(what + " is damaged Brotli data: " + e.getMessage(), e);
    }
  }

  /**
   * ZSTD frames into {@code out}.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int zstd(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    return airlift(new ZstdDecompressor(), "ZSTD", in, from, length, out, what);
  }

  /**
   * One raw LZ4 block (Parquet's {@code LZ4_RAW}) into {@code out}.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int lz4Raw(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    return airlift(new Lz4Decompressor(), "LZ4", in, from, length, out, what);
  }

  /**
   * One of aircompressor's block decompressors into {@code out}, which it never writes past; its
   * failures (a runtime exception) made a {@link CorruptDataException}.
   */
  private static int airlift(
      Decompressor d, String codec, byte[] in, int from, int length, byte[] out, String what)
      throws CorruptDataException {
    try {
      return d.decompress(in, from, length, out, 0, out.length);
    } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw corrupt(what, codec, out.length, e);
    }
  }

  /**
   * Parquet's older {@code LZ4} codec: Hadoop's framing (each frame a big-endian uncompressed size,
   * a compressed size, then LZ4 blocks), or, as some writers wrote it, one raw block.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int lz4Hadoop(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    int framed = hadoopFrames(in, from, length, out, what);
    return framed >= 0 ? framed : lz4Raw(in, from, length, out, what);
  }

  /** Hadoop-framed LZ4 into {@code out}, or -1 when the bytes are not in that framing. */
  private static int hadoopFrames(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    int pos = from;
    int end = from + length;
    int n = 0;
    while (pos < end) {
      if (end - pos < 8) {
        return -1;
      }
      long total = be32(in, pos);
      pos += 4;
      if (total > out.length - n) {
        return -1;
      }
      long frameEnd = n + total;
      while (n < frameEnd) {
        if (end - pos < 4) {
          return -1;
        }
        long compressed = be32(in, pos);
        pos += 4;
        if (compressed > end - pos) {
          return -1;
        }
        int got;
        try {
          got =
              new Lz4Decompressor()
                  .decompress(in, pos, (int) compressed, out, n, (int) (frameEnd - n));
        } catch (MalformedInputException | IllegalArgumentException | IndexOutOfBoundsException e) {
          return -1;
        }
        pos += (int) compressed;
        n += got;
        if (got == 0) {
          return -1;
        }
      }
    }
    return n;
  }

  /**
   * Raw Snappy (as Parquet stores pages) into {@code out}; the length it declares is checked
   * against {@code out} before anything is decoded.
   *
   * @throws CorruptDataException naming {@code what} when damaged or longer than {@code out}
   */
  public static int snappy(byte[] in, int from, int length, byte[] out, String what)
      throws IOException {
    long declared = snappyLength(in, from, from + length, what);
    if (declared > out.length) {
      throw tooLong(what, out.length);
    }
    return airlift(new SnappyDecompressor(), "Snappy", in, from, length, out, what);
  }

  /** The uncompressed length a Snappy block starts with (a varint of up to 32 bits). */
  private static long snappyLength(byte[] in, int from, int to, String what)
      throws CorruptDataException {
    long v = 0;
    for (int shift = 0, pos = from; shift <= 28; shift += 7, pos++) {
      if (pos >= to) {
        break;
      }
      int b = in[pos] & 0xff;
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new CorruptDataException(what + " is damaged Snappy data: no length header", null);
  }

  private static long be32(byte[] b, int p) {
    return (b[p] & 0xffL) << 24
        | (b[p + 1] & 0xffL) << 16
        | (b[p + 2] & 0xffL) << 8
        | b[p + 3] & 0xffL;
  }

  private static CorruptDataException tooLong(String what, int most) {
    return new CorruptDataException(
        what + " decompresses to more than the " + most + " bytes it declares", null);
  }

  private static CorruptDataException corrupt(
      String what, String codec, int most, RuntimeException e) {
    String m = String.valueOf(e.getMessage());
    if (m.toLowerCase(java.util.Locale.ROOT).contains("too small")) {
      return tooLong(what, most);
    }
    return new CorruptDataException(what + " is damaged " + codec + " data: " + m, e);
  }
}
