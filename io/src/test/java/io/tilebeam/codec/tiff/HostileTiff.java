package io.tilebeam.codec.tiff;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.Deflater;

/**
 * GeoTIFF files whose headers lie, for the tests of what tilebeam does with hostile files: written
 * tag by tag as TIFF 6.0 and BigTIFF say, georeferenced in WGS 84 longitude/latitude over 10°E 40°N
 * to 20°E 50°N (so SIS reads them as GeoTIFFs), with one tag or block made to lie per case.
 */
public final class HostileTiff {

  private static final int ASCII = 2;
  private static final int SHORT = 3;
  private static final int LONG = 4;
  private static final int DOUBLE = 12;
  private static final int LONG8 = 16;

  private final boolean big;
  private final TreeMap<Integer, Object[]> tags = new TreeMap<>();
  private final List<byte[]> blocks = new ArrayList<>();
  private long[] offsetsOverride;
  private long[] countsOverride;

  private HostileTiff(boolean big) {
    this.big = big;
  }

  /**
   * A well-formed tiled GeoTIFF of {@code width × height} bytes in tiles of {@code tile}, deflated,
   * its tiles then set by {@link #block}.
   */
  static HostileTiff base(boolean big, int width, int height, int tile) {
    HostileTiff t = new HostileTiff(big);
    t.tag(256, LONG, width);
    t.tag(257, LONG, height);
    t.tag(258, SHORT, 8);
    t.tag(259, SHORT, 8);
    t.tag(262, SHORT, 1);
    t.tag(277, SHORT, 1);
    t.tag(284, SHORT, 1);
    t.tag(322, SHORT, tile);
    t.tag(323, SHORT, tile);
    t.tag(339, SHORT, 1);
    t.doubles(33550, 10.0 / width, 10.0 / height, 0);
    t.doubles(33922, 0, 0, 0, 10, 50, 0);
    t.tag(34735, SHORT, 1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326);
    // GDAL_NODATA "0\0": the file declares its no data, as GDAL writes it.
    t.tag(42113, ASCII, '0', 0);
    return t;
  }

  HostileTiff tag(int code, int type, long... values) {
    Object[] v = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      v[i] = values[i];
    }
    tags.put(code, new Object[] {type, v});
    return this;
  }

  HostileTiff doubles(int code, double... values) {
    Object[] v = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      v[i] = values[i];
    }
    tags.put(code, new Object[] {DOUBLE, v});
    return this;
  }

  /** Adds a tile's stored bytes. */
  HostileTiff block(byte[] stored) {
    blocks.add(stored);
    return this;
  }

  /** The blocks' offsets and byte counts as the file states them, whatever they hold. */
  HostileTiff positions(long[] offsets, long[] counts) {
    this.offsetsOverride = offsets;
    this.countsOverride = counts;
    return this;
  }

  /** The file's bytes: header, directory, out-of-line values, blocks. */
  byte[] bytes() {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    long[] offsets = new long[blocks.size()];
    long[] counts = new long[blocks.size()];
    // Laid out after the directory: positions fixed up once its size is known.
    int entry = big ? 20 : 12;
    TreeMap<Integer, Object[]> all = new TreeMap<>(tags);
    all.put(324, new Object[] {big ? LONG8 : LONG, new Object[Math.max(1, blocks.size())]});
    all.put(325, new Object[] {big ? LONG8 : LONG, new Object[Math.max(1, blocks.size())]});
    if (offsetsOverride != null) {
      all.put(324, new Object[] {big ? LONG8 : LONG, box(offsetsOverride)});
      all.put(325, new Object[] {big ? LONG8 : LONG, box(countsOverride)});
    }
    long head = big ? 16 : 8;
    long directory = (big ? 8 : 2) + (long) all.size() * entry + (big ? 8 : 4);
    long valuesAt = head + directory;
    long valuesSize = 0;
    for (Object[] t : all.values()) {
      long size = size(t);
      if (size > (big ? 8 : 4)) {
        valuesSize += size + (size & 1);
      }
    }
    long blocksAt = valuesAt + valuesSize;
    long at = blocksAt;
    for (int i = 0; i < blocks.size(); i++) {
      offsets[i] = at;
      counts[i] = blocks.get(i).length;
      at += blocks.get(i).length;
      data.writeBytes(blocks.get(i));
    }
    if (offsetsOverride == null) {
      all.put(324, new Object[] {big ? LONG8 : LONG, box(offsets)});
      all.put(325, new Object[] {big ? LONG8 : LONG, box(counts)});
    }
    ByteBuffer out = ByteBuffer.allocate((int) at).order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) 'I').put((byte) 'I');
    if (big) {
      out.putShort((short) 43).putShort((short) 8).putShort((short) 0).putLong(head);
      out.putLong(all.size());
    } else {
      out.putShort((short) 42).putInt((int) head);
      out.putShort((short) all.size());
    }
    long next = valuesAt;
    List<Object[]> outOfLine = new ArrayList<>();
    for (var e : all.entrySet()) {
      Object[] t = e.getValue();
      int type = (int) t[0];
      Object[] values = (Object[]) t[1];
      out.putShort((short) (int) e.getKey()).putShort((short) type);
      if (big) {
        out.putLong(values.length);
      } else {
        out.putInt(values.length);
      }
      long size = size(t);
      int slot = big ? 8 : 4;
      if (size > slot) {
        if (big) {
          out.putLong(next);
        } else {
          out.putInt((int) next);
        }
        next += size + (size & 1);
        outOfLine.add(t);
      } else {
        int start = out.position();
        put(out, t);
        while (out.position() < start + slot) {
          out.put((byte) 0);
        }
      }
    }
    if (big) {
      out.putLong(0);
    } else {
      out.putInt(0);
    }
    for (Object[] t : outOfLine) {
      put(out, t);
      if ((size(t) & 1) == 1) {
        out.put((byte) 0);
      }
    }
    out.put(data.toByteArray());
    return out.array();
  }

  private static Object[] box(long[] values) {
    Object[] out = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }

  private static long size(Object[] t) {
    int type = (int) t[0];
    int unit = type == ASCII ? 1 : type == SHORT ? 2 : type == LONG ? 4 : 8;
    return (long) unit * ((Object[]) t[1]).length;
  }

  private static void put(ByteBuffer out, Object[] t) {
    int type = (int) t[0];
    for (Object v : (Object[]) t[1]) {
      long n = v == null ? 0 : v instanceof Double ? 0 : (Long) v;
      switch (type) {
        case ASCII -> out.put((byte) n);
        case SHORT -> out.putShort((short) n);
        case LONG -> out.putInt((int) n);
        case DOUBLE -> out.putDouble((Double) v);
        default -> out.putLong(n);
      }
    }
  }

  /** {@code bytes} bytes of {@code value}, deflated (zlib) as TIFF stores them. */
  static byte[] deflated(long bytes, int value) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) value);
    byte[] buffer = new byte[1 << 16];
    for (long n = 0; n < bytes; n += chunk.length) {
      d.setInput(chunk, 0, (int) Math.min(chunk.length, bytes - n));
      while (!d.needsInput()) {
        out.write(buffer, 0, d.deflate(buffer));
      }
    }
    d.finish();
    while (!d.finished()) {
      out.write(buffer, 0, d.deflate(buffer));
    }
    d.end();
    return out.toByteArray();
  }

  // The cases.

  /** A good GeoTIFF of 512 × 256 in two tiles of 256, values 100 and 200. */
  public static byte[] good() {
    return base(false, 512, 256, 256)
        .block(deflated(256 * 256, 100))
        .block(deflated(256 * 256, 200))
        .bytes();
  }

  /** Two tiles, the second damaged: its deflate stream cut in half and scrambled. */
  public static byte[] oneDamagedBlock() {
    byte[] bad = deflated(256 * 256, 200);
    bad = Arrays.copyOf(bad, bad.length / 2);
    for (int i = 2; i < bad.length; i++) {
      bad[i] ^= (byte) 0x5A;
    }
    return base(false, 512, 256, 256).block(deflated(256 * 256, 100)).block(bad).bytes();
  }

  /** One tile of 16384 × 16384 whose byte count is 0 (a block never written). */
  public static byte[] hugeBlockOfNoBytes() {
    return base(false, 16384, 16384, 16384).block(new byte[0]).bytes();
  }

  /** One tile of 16384 × 16384 stored as deflate of zeros (256 MiB when inflated). */
  public static byte[] hugeBlockDeflated() {
    return base(false, 16384, 16384, 16384).block(deflated(16384L * 16384, 0)).bytes();
  }

  /** A BigTIFF whose block offset and byte count add up past 2^63. */
  public static byte[] bigTiffOffsetWrapping() {
    return base(true, 256, 256, 256)
        .positions(new long[] {Long.MAX_VALUE - 100}, new long[] {200})
        .bytes();
  }

  /** SamplesPerPixel 0. */
  public static byte[] noSamplesPerPixel() {
    return base(false, 256, 256, 256).tag(277, SHORT, 0).block(deflated(256 * 256, 1)).bytes();
  }

  /** 65535 bands of bytes. */
  public static byte[] bands65535() {
    return base(false, 256, 256, 256).tag(277, SHORT, 65535).block(deflated(256 * 256, 1)).bytes();
  }

  /** A GeoKey directory that claims 65535 keys and holds 3. */
  public static byte[] geoKeysClaiming65535() {
    return base(false, 256, 256, 256)
        .tag(34735, SHORT, 1, 1, 0, 65535, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326)
        .block(deflated(256 * 256, 1))
        .bytes();
  }

  /** A pixel scale of NaN. */
  public static byte[] nanScale() {
    return base(false, 256, 256, 256)
        .doubles(33550, Double.NaN, 10.0 / 256, 0)
        .block(deflated(256 * 256, 1))
        .bytes();
  }

  /** A pixel scale of zero. */
  public static byte[] zeroScale() {
    return base(false, 256, 256, 256).doubles(33550, 0, 0, 0).block(deflated(256 * 256, 1)).bytes();
  }
}
