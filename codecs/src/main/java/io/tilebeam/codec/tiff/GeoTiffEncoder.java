package io.tilebeam.codec.tiff;

import io.tilebeam.codec.compress.Inflation;
import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;

/**
 * Writes a raster tile as a tiled, deflate-compressed GeoTIFF (little-endian TIFF 6.0 with the
 * GeoTIFF 1.1 keys): the CRS by its EPSG code, the georeferencing as a pixel scale and a tie point
 * at the top-left corner (pixels are areas), and the nodata value in GDAL's {@code GDAL_NODATA}
 * tag, which GDAL, QGIS and Apache SIS read. Apache SIS's own writer declares no nodata, hence this
 * one.
 *
 * <p>The bytes depend only on the tile and its georeferencing: a fixed layout (header, directory,
 * tag values, then the TIFF tiles in order) and a fixed deflate level, so the same work gives the
 * same bytes.
 */
public final class GeoTiffEncoder {

  /** The TIFF tile edge, in pixels; a raster tile larger than this is split into several. */
  static final int TIFF_TILE = 256;

  private static final int DEFLATE_LEVEL = 6;

  private static final short BYTE = 1;
  private static final short ASCII = 2;
  private static final short SHORT = 3;
  private static final short LONG = 4;
  private static final short DOUBLE = 12;

  /**
   * Where a tile lies: its CRS's EPSG code and whether that CRS is geographic, its top-left corner
   * and its pixel size, in the CRS's units, east and north.
   */
  public record Georeference(
      int epsg, boolean geographic, double minX, double maxY, double pixelWidth, double pixelHeight)
      implements java.io.Serializable {}

  private GeoTiffEncoder() {}

  /**
   * The GeoTIFF of {@code tile} placed by {@code where}; a tile without a no-data value whose
   * source leaves pixels out gets an internal transparency mask (a second image of one bit a pixel,
   * which GDAL reads as the bands' mask), so its zeros there are not taken for data.
   */
  public static byte[] encode(RasterTile tile, Georeference where) {
    int across = (tile.width() + TIFF_TILE - 1) / TIFF_TILE;
    int down = (tile.height() + TIFF_TILE - 1) / TIFF_TILE;
    List<byte[]> chunks = new ArrayList<>();
    List<byte[]> maskChunks = new ArrayList<>();
    boolean masked = tile.nodata() == null && !tile.full();
    for (int ty = 0; ty < down; ty++) {
      for (int tx = 0; tx < across; tx++) {
        chunks.add(deflate(tiffTile(tile, tx, ty)));
        if (masked) {
          maskChunks.add(deflate(maskTile(tile, tx, ty)));
        }
      }
    }
    List<Directory> directories = new ArrayList<>();
    directories.add(new Directory(tags(tile, where, chunks), chunks));
    if (masked) {
      directories.add(new Directory(maskTags(tile, maskChunks), maskChunks));
    }
    return layout(directories);
  }

  /** One image file directory: its tags and its compressed TIFF tiles. */
  private record Directory(List<Tag> tags, List<byte[]> chunks) {}

  /** The mask of one TIFF tile: a bit a pixel, the first pixel the highest bit, 1 with data. */
  private static byte[] maskTile(RasterTile tile, int tx, int ty) {
    byte[] out = new byte[TIFF_TILE * TIFF_TILE / 8];
    for (int y = 0; y < TIFF_TILE; y++) {
      for (int x = 0; x < TIFF_TILE; x++) {
        int px = tx * TIFF_TILE + x;
        int py = ty * TIFF_TILE + y;
        if (px < tile.width() && py < tile.height() && tile.covered(px, py)) {
          out[(y * TIFF_TILE + x) >> 3] |= (byte) (0x80 >>> (x & 7));
        }
      }
    }
    return out;
  }

  /** The tags of the mask's directory: as GDAL writes an internal mask. */
  private static List<Tag> maskTags(RasterTile tile, List<byte[]> chunks) {
    List<Tag> tags = new ArrayList<>();
    tags.add(Tag.of(254, LONG, 4)); // NewSubfileType: a transparency mask
    tags.add(Tag.of(256, LONG, tile.width()));
    tags.add(Tag.of(257, LONG, tile.height()));
    tags.add(Tag.of(258, SHORT, 1));
    tags.add(Tag.of(259, SHORT, 8));
    tags.add(Tag.of(262, SHORT, 4)); // Photometric: transparency mask
    tags.add(Tag.of(277, SHORT, 1));
    tags.add(Tag.of(284, SHORT, 1));
    tags.add(Tag.of(322, SHORT, TIFF_TILE));
    tags.add(Tag.of(323, SHORT, TIFF_TILE));
    tags.add(Tag.of(324, LONG, new long[chunks.size()]));
    tags.add(Tag.of(325, LONG, lengths(chunks)));
    tags.add(Tag.of(339, SHORT, 1));
    return tags;
  }

  private static long[] lengths(List<byte[]> chunks) {
    long[] counts = new long[chunks.size()];
    for (int i = 0; i < chunks.size(); i++) {
      counts[i] = chunks.get(i).length;
    }
    return counts;
  }

  /** The samples of one TIFF tile, padded with nodata (or zero) past the image's edge. */
  private static byte[] tiffTile(RasterTile tile, int tx, int ty) {
    int bands = tile.bands();
    int bytes = tile.type().bits() / 8;
    ByteBuffer out =
        ByteBuffer.allocate(TIFF_TILE * TIFF_TILE * bands * bytes).order(ByteOrder.LITTLE_ENDIAN);
    double pad = tile.nodata() != null ? tile.nodata() : 0;
    for (int y = ty * TIFF_TILE; y < (ty + 1) * TIFF_TILE; y++) {
      for (int x = tx * TIFF_TILE; x < (tx + 1) * TIFF_TILE; x++) {
        for (int b = 0; b < bands; b++) {
          double v = x < tile.width() && y < tile.height() ? tile.sample(x, y, b) : pad;
          put(out, tile.type(), v);
        }
      }
    }
    return out.array();
  }

  private static void put(ByteBuffer out, SampleType type, double v) {
    switch (type) {
      case UINT8 -> out.put((byte) (int) v);
      case INT16, UINT16 -> out.putShort((short) (int) v);
      case FLOAT32 -> out.putFloat((float) v);
    }
  }

  private static byte[] deflate(byte[] raw) {
    Deflater deflater = new Deflater(DEFLATE_LEVEL);
    try {
      deflater.setInput(raw);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 4 + 64);
      byte[] buffer = new byte[64 << 10];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }

  /** A directory entry: its code, type and values (numbers, or the bytes of an ASCII value). */
  private record Tag(int code, short type, long[] numbers, double[] doubles, byte[] ascii) {
    static Tag of(int code, short type, long... numbers) {
      return new Tag(code, type, numbers, null, null);
    }

    static Tag doubles(int code, double... values) {
      return new Tag(code, DOUBLE, null, values, null);
    }

    static Tag ascii(int code, String text) {
      return new Tag(code, ASCII, null, null, (text + "\0").getBytes(StandardCharsets.US_ASCII));
    }

    int count() {
      return ascii != null ? ascii.length : doubles != null ? doubles.length : numbers.length;
    }

    int size() {
      int unit = type == DOUBLE ? 8 : type == LONG ? 4 : type == SHORT ? 2 : 1;
      return unit * count();
    }
  }

  private static List<Tag> tags(RasterTile tile, Georeference where, List<byte[]> chunks) {
    int bands = tile.bands();
    long[] bits = new long[bands];
    long[] formats = new long[bands];
    java.util.Arrays.fill(bits, tile.type().bits());
    java.util.Arrays.fill(formats, tile.type().sampleFormat());
    long[] offsets = new long[chunks.size()];
    long[] counts = lengths(chunks);
    List<Tag> tags = new ArrayList<>();
    tags.add(Tag.of(256, LONG, tile.width()));
    tags.add(Tag.of(257, LONG, tile.height()));
    tags.add(Tag.of(258, SHORT, bits));
    tags.add(Tag.of(259, SHORT, 8)); // Deflate (Adobe)
    tags.add(Tag.of(262, SHORT, 1)); // BlackIsZero: bands are data, not colours
    tags.add(Tag.of(277, SHORT, bands));
    tags.add(Tag.of(284, SHORT, 1)); // a pixel's bands together
    tags.add(Tag.of(322, SHORT, TIFF_TILE));
    tags.add(Tag.of(323, SHORT, TIFF_TILE));
    tags.add(Tag.of(324, LONG, offsets)); // filled in by layout
    tags.add(Tag.of(325, LONG, counts));
    if (bands > 1) {
      tags.add(Tag.of(338, SHORT, new long[bands - 1])); // extra bands: unspecified data
    }
    tags.add(Tag.of(339, SHORT, formats));
    tags.add(Tag.doubles(33550, where.pixelWidth(), where.pixelHeight(), 0));
    tags.add(Tag.doubles(33922, 0, 0, 0, where.minX(), where.maxY(), 0));
    tags.add(
        Tag.of(
            34735,
            SHORT,
            1,
            1,
            0,
            3, // directory version 1.1.0, three keys
            1024,
            0,
            1,
            where.geographic() ? 2 : 1, // GTModelType: geographic or projected
            1025,
            0,
            1,
            1, // GTRasterType: pixels are areas
            where.geographic() ? 2048 : 3072,
            0,
            1,
            where.epsg())); // the CRS by its EPSG code
    if (tile.nodata() != null) {
      tags.add(Tag.ascii(42113, nodataText(tile.nodata())));
    }
    return tags;
  }

  /** The nodata value as GDAL writes it: an integer without a point, else the shortest decimal. */
  static String nodataText(double nodata) {
    if (Double.isNaN(nodata)) {
      return "nan";
    }
    if (nodata == Math.rint(nodata) && Math.abs(nodata) < 1e15) {
      return Long.toString((long) nodata);
    }
    return String.format(Locale.ROOT, "%s", nodata);
  }

  /**
   * Header, then each directory with its out-of-line tag values (the first pointing at the next),
   * then every directory's compressed tiles in order.
   */
  private static byte[] layout(List<Directory> directories) {
    long[] at = new long[directories.size()];
    long next = 8;
    for (int d = 0; d < directories.size(); d++) {
      at[d] = next;
      List<Tag> tags = directories.get(d).tags();
      next += 2 + tags.size() * 12 + 4;
      for (Tag t : tags) {
        if (t.size() > 4) {
          next += t.size() + (t.size() & 1);
        }
      }
    }
    for (Directory d : directories) {
      Tag offsets = d.tags().stream().filter(t -> t.code() == 324).findFirst().orElseThrow();
      for (int i = 0; i < d.chunks().size(); i++) {
        offsets.numbers()[i] = next;
        next += d.chunks().get(i).length;
      }
    }
    ByteBuffer out = ByteBuffer.allocate((int) next).order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) 'I').put((byte) 'I').putShort((short) 42).putInt((int) at[0]);
    for (int d = 0; d < directories.size(); d++) {
      List<Tag> tags = directories.get(d).tags();
      out.putShort((short) tags.size());
      long values = at[d] + 2 + tags.size() * 12 + 4;
      List<Tag> outOfLine = new ArrayList<>();
      for (Tag t : tags) {
        out.putShort((short) t.code()).putShort(t.type()).putInt(t.count());
        if (t.size() > 4) {
          out.putInt((int) values);
          values += t.size() + (t.size() & 1);
          outOfLine.add(t);
        } else {
          int start = out.position();
          values(out, t);
          while (out.position() < start + 4) {
            out.put((byte) 0);
          }
        }
      }
      out.putInt(d + 1 < directories.size() ? (int) at[d + 1] : 0);
      for (Tag t : outOfLine) {
        values(out, t);
        if ((t.size() & 1) == 1) {
          out.put((byte) 0);
        }
      }
    }
    directories.forEach(d -> d.chunks().forEach(out::put));
    return out.array();
  }

  private static void values(ByteBuffer out, Tag t) {
    if (t.ascii() != null) {
      out.put(t.ascii());
    } else if (t.doubles() != null) {
      for (double d : t.doubles()) {
        out.putDouble(d);
      }
    } else {
      for (long n : t.numbers()) {
        if (t.type() == LONG) {
          out.putInt((int) n);
        } else if (t.type() == SHORT) {
          out.putShort((short) n);
        } else {
          out.put((byte) n);
        }
      }
    }
  }

  /**
   * Checks that {@code bytes} are a whole GeoTIFF as this encoder writes them: the header, one
   * directory, every TIFF tile inside the file and inflating to its full size.
   *
   * @throws java.io.IOException naming what is wrong
   */
  public static void check(byte[] bytes) throws java.io.IOException {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (bytes.length < 8 || in.getShort(0) != 0x4949 || in.getShort(2) != 42) {
      throw new java.io.IOException("not a little-endian TIFF");
    }
    int directory = in.getInt(4);
    // The image, then its mask if it has one: never more than two.
    for (int d = 0; directory != 0; d++) {
      if (d == 2 || directory < 8 || directory > bytes.length - 2) {
        throw new java.io.IOException("a TIFF whose directories are not the image and its mask");
      }
      directory = checkDirectory(in, directory, "TIFF " + (d == 0 ? "tile " : "mask tile "));
    }
  }

  /** Checks one directory's tiles; returns the next directory's offset. */
  private static int checkDirectory(ByteBuffer in, int directory, String what)
      throws java.io.IOException {
    int entries = in.getShort(directory) & 0xffff;
    long[] offsets = null;
    long[] counts = null;
    long samplesPerPixel = 1;
    long bits = 0;
    for (int e = 0; e < entries; e++) {
      int at = directory + 2 + e * 12;
      int code = in.getShort(at) & 0xffff;
      int type = in.getShort(at + 2);
      int count = in.getInt(at + 4);
      int size = (type == LONG ? 4 : type == SHORT ? 2 : 1) * count;
      int values = size > 4 ? in.getInt(at + 8) : at + 8;
      switch (code) {
        case 324 -> offsets = numbers(in, type, count, values);
        case 325 -> counts = numbers(in, type, count, values);
        case 277 -> samplesPerPixel = numbers(in, type, count, values)[0];
        case 258 -> bits = numbers(in, type, count, values)[0];
        default -> {}
      }
    }
    if (offsets == null || counts == null || offsets.length != counts.length || bits == 0) {
      throw new java.io.IOException("a TIFF without its tiles");
    }
    long expected = (long) TIFF_TILE * TIFF_TILE * samplesPerPixel * bits / 8;
    for (int t = 0; t < offsets.length; t++) {
      if (offsets[t] + counts[t] > in.capacity()) {
        throw new java.io.IOException(what + t + " ends past the file's end");
      }
      Inflation.check(in.array(), (int) offsets[t], (int) counts[t], expected, what + t);
    }
    return in.getInt(directory + 2 + entries * 12);
  }

  private static long[] numbers(ByteBuffer in, int type, int count, int at) {
    long[] out = new long[count];
    for (int i = 0; i < count; i++) {
      out[i] =
          type == LONG ? in.getInt(at + 4 * i) & 0xffffffffL : in.getShort(at + 2 * i) & 0xffff;
    }
    return out;
  }
}
