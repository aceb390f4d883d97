package io.tilebeam.codec.png;

import io.tilebeam.codec.compress.Inflation;
import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * Writes a raster tile as a PNG for web maps: one band of 8 or 16 bits as grey with alpha, three
 * 8-bit bands as RGB with alpha, four as RGBA; a pixel without data is fully transparent (zero in
 * every channel; a pixel the tile's coverage leaves out), every other pixel opaque unless a fourth
 * band says otherwise. Other sample types cannot be a PNG and are refused at planning.
 *
 * <p>Written by hand (signature, IHDR, one IDAT of unfiltered rows, IEND) with a fixed deflate
 * level, so the same tile always gives the same bytes.
 */
public final class PngEncoder {

  private static final byte[] SIGNATURE = {(byte) 137, 80, 78, 71, 13, 10, 26, 10};
  private static final int DEFLATE_LEVEL = 6;
  private static final int GREY_ALPHA = 4;
  private static final int RGBA = 6;

  private PngEncoder() {}

  /**
   * Whether a tile of {@code bands} bands of {@code type} can be a PNG: 1 band of 8 or 16 bits, 3
   * or 4 bands of 8 bits.
   */
  public static boolean fits(int bands, SampleType type) {
    return refuses(bands, type) == null;
  }

  /** Why a tile of {@code bands} bands of {@code type} cannot be a PNG, or null when it can. */
  public static String refuses(int bands, SampleType type) {
    boolean fits =
        (bands == 1 && (type == SampleType.UINT8 || type == SampleType.UINT16))
            || ((bands == 3 || bands == 4) && type == SampleType.UINT8);
    return fits
        ? null
        : "png holds 1 band of uint8 or uint16, or 3 or 4 bands of uint8, not "
            + bands
            + " of "
            + type.spelling();
  }

  /**
   * The PNG of {@code tile}.
   *
   * @throws IllegalArgumentException when the tile's bands and type cannot be a PNG ({@link #fits})
   */
  public static byte[] encode(RasterTile tile) {
    String refused = refuses(tile.bands(), tile.type());
    if (refused != null) {
      throw new IllegalArgumentException(refused);
    }
    int depth = tile.type().bits();
    int channels = tile.bands() == 1 ? 2 : 4;
    int bytesPerSample = depth / 8;
    int rowBytes = 1 + tile.width() * channels * bytesPerSample;
    byte[] raw = new byte[rowBytes * tile.height()];
    int at = 0;
    for (int y = 0; y < tile.height(); y++) {
      raw[at++] = 0; // filter: none
      for (int x = 0; x < tile.width(); x++) {
        at = pixel(tile, x, y, channels, bytesPerSample, raw, at);
      }
    }
    ByteBuffer header = ByteBuffer.allocate(13);
    header.putInt(tile.width()).putInt(tile.height());
    header.put((byte) depth).put((byte) (channels == 2 ? GREY_ALPHA : RGBA));
    header.put((byte) 0).put((byte) 0).put((byte) 0);
    ByteArrayOutputStream png = new ByteArrayOutputStream(raw.length / 3 + 64);
    png.writeBytes(SIGNATURE);
    chunk(png, "IHDR", header.array());
    chunk(png, "IDAT", zlib(raw));
    chunk(png, "IEND", new byte[0]);
    return png.toByteArray();
  }

  /** Writes one pixel's channels, big-endian; returns where the next begins. */
  private static int pixel(
      RasterTile tile, int x, int y, int channels, int bytesPerSample, byte[] raw, int at) {
    boolean empty = !tile.covered(x, y);
    int opaque = bytesPerSample == 2 ? 65535 : 255;
    for (int c = 0; c < channels; c++) {
      int v;
      if (empty) {
        v = 0;
      } else if (c == channels - 1) {
        v = tile.bands() == 4 ? (int) tile.sample(x, y, 3) : opaque;
      } else {
        v = (int) tile.sample(x, y, c);
      }
      if (bytesPerSample == 2) {
        raw[at++] = (byte) (v >>> 8);
      }
      raw[at++] = (byte) v;
    }
    return at;
  }

  private static byte[] zlib(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 3 + 64);
    Deflater deflater = new Deflater(DEFLATE_LEVEL);
    try (DeflaterOutputStream z = new DeflaterOutputStream(out, deflater, 64 << 10)) {
      z.write(raw);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e); // a byte array does not fail
    } finally {
      deflater.end();
    }
    return out.toByteArray();
  }

  private static void chunk(ByteArrayOutputStream png, String type, byte[] data) {
    byte[] name = type.getBytes(StandardCharsets.US_ASCII);
    png.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
    png.writeBytes(name);
    png.writeBytes(data);
    CRC32 crc = new CRC32();
    crc.update(name);
    crc.update(data);
    png.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  /**
   * Checks that {@code bytes} are a whole PNG: the signature, every chunk's CRC, a header, image
   * data that inflates to the header's size, and the end chunk last.
   *
   * @throws java.io.IOException naming what is wrong
   */
  public static void check(byte[] bytes) throws java.io.IOException {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    for (byte b : SIGNATURE) {
      if (!in.hasRemaining() || in.get() != b) {
        throw new java.io.IOException("not a PNG");
      }
    }
    long expected = -1;
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    boolean ended = false;
    while (in.remaining() >= 12 && !ended) {
      int length = in.getInt();
      if (length < 0 || length > in.remaining() - 8) {
        throw new java.io.IOException("a PNG chunk runs past the file's end");
      }
      byte[] name = new byte[4];
      in.get(name);
      byte[] body = new byte[length];
      in.get(body);
      CRC32 crc = new CRC32();
      crc.update(name);
      crc.update(body);
      if ((int) crc.getValue() != in.getInt()) {
        throw new java.io.IOException("a PNG chunk fails its CRC");
      }
      String type = new String(name, StandardCharsets.US_ASCII);
      if (type.equals("IHDR")) {
        ByteBuffer h = ByteBuffer.wrap(body);
        long width = h.getInt();
        long height = h.getInt();
        int depth = h.get();
        int channels = h.get() == GREY_ALPHA ? 2 : 4;
        expected = height * (1 + width * channels * depth / 8);
      } else if (type.equals("IDAT")) {
        data.writeBytes(body);
      } else if (type.equals("IEND")) {
        ended = true;
      }
    }
    if (!ended || expected < 0) {
      throw new java.io.IOException("a PNG without its header or end");
    }
    byte[] zlib = data.toByteArray();
    Inflation.check(zlib, 0, zlib.length, expected, "PNG data");
  }
}
