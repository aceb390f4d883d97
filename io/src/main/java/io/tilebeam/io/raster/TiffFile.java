package io.tilebeam.io.raster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The image directories of a TIFF file (classic or BigTIFF, either byte order), and its blocks read
 * by position. Only the layout tags are read here; georeferencing is SIS's part.
 *
 * <p>Not thread-safe: one per reading worker.
 */
final class TiffFile implements java.io.Closeable {

  private static final int NEW_SUBFILE_TYPE = 254;
  private static final int IMAGE_WIDTH = 256;
  private static final int IMAGE_LENGTH = 257;
  private static final int BITS_PER_SAMPLE = 258;
  private static final int COMPRESSION = 259;
  private static final int STRIP_OFFSETS = 273;
  private static final int SAMPLES_PER_PIXEL = 277;
  private static final int ROWS_PER_STRIP = 278;
  private static final int STRIP_BYTE_COUNTS = 279;
  private static final int PLANAR_CONFIGURATION = 284;
  private static final int PREDICTOR = 317;
  private static final int TILE_WIDTH = 322;
  private static final int TILE_LENGTH = 323;
  private static final int TILE_OFFSETS = 324;
  private static final int TILE_BYTE_COUNTS = 325;
  private static final int SAMPLE_FORMAT = 339;

  /** More directories than any real file has: a loop in the chain is a damaged file. */
  private static final int MOST_DIRECTORIES = 10_000;

  private final RangeReader channel;
  private final ByteOrder order;
  private final List<TiffDirectory> directories;

  private TiffFile(RangeReader channel, ByteOrder order, List<TiffDirectory> directories) {
    this.channel = channel;
    this.order = order;
    this.directories = directories;
  }

  /**
   * Opens a TIFF file and reads its directories.
   *
   * @throws IOException when it cannot be read or is not a TIFF
   */
  static TiffFile open(Path file) throws IOException {
    return open(RangeReader.of(file));
  }

  /**
   * Reads the directories of a TIFF's bytes; the file owns {@code channel} and closes it.
   *
   * @throws IOException when they cannot be read or are not a TIFF
   */
  static TiffFile open(RangeReader channel) throws IOException {
    try {
      if (channel.size() < 8) {
        throw new IOException("not a TIFF file (" + channel.size() + " bytes)");
      }
      ByteBuffer head =
          read(channel, 0, (int) Math.min(16, channel.size()), ByteOrder.LITTLE_ENDIAN);
      ByteOrder order;
      if (head.get(0) == 'I' && head.get(1) == 'I') {
        order = ByteOrder.LITTLE_ENDIAN;
      } else if (head.get(0) == 'M' && head.get(1) == 'M') {
        order = ByteOrder.BIG_ENDIAN;
      } else {
        throw new IOException("not a TIFF file (no byte order mark)");
      }
      head.order(order);
      int version = head.getShort(2) & 0xFFFF;
      boolean big = version == 43;
      if (version != 42 && !big) {
        throw new IOException("not a TIFF file (version " + version + ")");
      }
      long next = big ? head.getLong(8) : head.getInt(4) & 0xFFFFFFFFL;
      List<TiffDirectory> directories = new ArrayList<>();
      while (next != 0) {
        if (directories.size() == MOST_DIRECTORIES) {
          throw new IOException("the TIFF's directory chain does not end");
        }
        Map<Integer, long[]> tags = new HashMap<>();
        next = readDirectory(channel, order, big, next, tags);
        directories.add(directory(tags));
      }
      if (directories.isEmpty()) {
        throw new IOException("the TIFF holds no image");
      }
      return new TiffFile(channel, order, directories);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The directories, in file order. */
  List<TiffDirectory> directories() {
    return directories;
  }

  /**
   * The first image and its overviews, from the finest: what a reader of the first image can use
   * (transparency masks and other images left out).
   */
  List<TiffDirectory> levels() {
    List<TiffDirectory> out = new ArrayList<>();
    out.add(directories.get(0));
    for (TiffDirectory d : directories.subList(1, directories.size())) {
      if (d.overview() && d.samplesPerPixel() == directories.get(0).samplesPerPixel()) {
        out.add(d);
      }
    }
    out.subList(1, out.size()).sort((a, b) -> Long.compare(b.width(), a.width()));
    return out;
  }

  /** Reads one directory's entries into {@code tags}; returns the next directory's offset. */
  private static long readDirectory(
      RangeReader channel, ByteOrder order, boolean big, long at, Map<Integer, long[]> tags)
      throws IOException {
    int countSize = big ? 8 : 2;
    int entrySize = big ? 20 : 12;
    ByteBuffer countBuffer = read(channel, at, countSize, order);
    long count = big ? countBuffer.getLong(0) : countBuffer.getShort(0) & 0xFFFF;
    if (count < 0 || count > 65_535) {
      throw new IOException("a TIFF directory of " + count + " entries");
    }
    ByteBuffer entries =
        read(channel, at + countSize, (int) count * entrySize + (big ? 8 : 4), order);
    for (int i = 0; i < count; i++) {
      int base = i * entrySize;
      int tag = entries.getShort(base) & 0xFFFF;
      int type = entries.getShort(base + 2) & 0xFFFF;
      long n = big ? entries.getLong(base + 4) : entries.getInt(base + 4) & 0xFFFFFFFFL;
      int size = typeSize(type);
      if (size == 0 || !wanted(tag)) {
        continue;
      }
      if (n < 0 || n > 50_000_000) {
        throw new IOException("TIFF tag " + tag + " has " + n + " values");
      }
      long bytes = n * size;
      int valueAt = base + (big ? 12 : 8);
      ByteBuffer values;
      int from;
      if (bytes <= (big ? 8 : 4)) {
        values = entries;
        from = valueAt;
      } else {
        long offset = big ? entries.getLong(valueAt) : entries.getInt(valueAt) & 0xFFFFFFFFL;
        values = read(channel, offset, (int) bytes, order);
        from = 0;
      }
      long[] out = new long[(int) n];
      for (int k = 0; k < n; k++) {
        int p = from + k * size;
        out[k] =
            switch (type) {
              case 1, 7 -> values.get(p) & 0xFF;
              case 3 -> values.getShort(p) & 0xFFFF;
              case 4, 13 -> values.getInt(p) & 0xFFFFFFFFL;
              default -> values.getLong(p);
            };
      }
      tags.put(tag, out);
    }
    int nextAt = (int) count * entrySize;
    return big ? entries.getLong(nextAt) : entries.getInt(nextAt) & 0xFFFFFFFFL;
  }

  private static boolean wanted(int tag) {
    return switch (tag) {
      case NEW_SUBFILE_TYPE,
          IMAGE_WIDTH,
          IMAGE_LENGTH,
          BITS_PER_SAMPLE,
          COMPRESSION,
          STRIP_OFFSETS,
          SAMPLES_PER_PIXEL,
          ROWS_PER_STRIP,
          STRIP_BYTE_COUNTS,
          PLANAR_CONFIGURATION,
          PREDICTOR,
          TILE_WIDTH,
          TILE_LENGTH,
          TILE_OFFSETS,
          TILE_BYTE_COUNTS,
          SAMPLE_FORMAT ->
          true;
      default -> false;
    };
  }

  /**
   * Bytes of one value of an integer TIFF type (BYTE, SHORT, LONG, UNDEFINED, IFD, LONG8, IFD8).
   */
  private static int typeSize(int type) {
    return switch (type) {
      case 1, 7 -> 1;
      case 3 -> 2;
      case 4, 13 -> 4;
      case 16, 18 -> 8;
      default -> 0;
    };
  }

  private static TiffDirectory directory(Map<Integer, long[]> tags) throws IOException {
    long width = one(tags, IMAGE_WIDTH, -1);
    long height = one(tags, IMAGE_LENGTH, -1);
    if (width <= 0 || height <= 0) {
      throw new IOException("a TIFF image without a width or a height");
    }
    boolean tiled = tags.containsKey(TILE_OFFSETS);
    long blockWidth = tiled ? one(tags, TILE_WIDTH, -1) : width;
    long blockHeight =
        tiled ? one(tags, TILE_LENGTH, -1) : Math.min(height, one(tags, ROWS_PER_STRIP, height));
    if (blockWidth <= 0 || blockHeight <= 0 || blockWidth * blockHeight > (1 << 28)) {
      throw new IOException("TIFF blocks of " + blockWidth + " x " + blockHeight);
    }
    long[] offsets = tags.getOrDefault(tiled ? TILE_OFFSETS : STRIP_OFFSETS, new long[0]);
    long[] counts = tags.getOrDefault(tiled ? TILE_BYTE_COUNTS : STRIP_BYTE_COUNTS, new long[0]);
    return new TiffDirectory(
        width,
        height,
        (int) blockWidth,
        (int) blockHeight,
        offsets,
        counts,
        (int) one(tags, BITS_PER_SAMPLE, 1),
        (int) one(tags, SAMPLE_FORMAT, 1),
        (int) one(tags, SAMPLES_PER_PIXEL, 1),
        one(tags, PLANAR_CONFIGURATION, 1) == 2,
        (int) one(tags, COMPRESSION, 1),
        (int) one(tags, PREDICTOR, 1),
        one(tags, NEW_SUBFILE_TYPE, 0));
  }

  private static long one(Map<Integer, long[]> tags, int tag, long otherwise) {
    long[] v = tags.get(tag);
    return v == null || v.length == 0 ? otherwise : v[0];
  }

  /**
   * The samples of one block, decoded: for each band of the block (all bands together when they are
   * stored together, one band when apart), row by row over the block's full width and height, as
   * floats.
   *
   * @param index the block's index in the directory's offsets
   * @param rows the block's rows that hold image data (strips at the image's end are shorter)
   * @throws IOException when the block cannot be read or decoded
   */
  float[] readBlock(TiffDirectory d, int index, int rows) throws IOException {
    int bands = d.planar() ? 1 : d.samplesPerPixel();
    int bytesPerSample = d.bitsPerSample() / 8;
    int rowBytes = d.blockWidth() * bands * bytesPerSample;
    int expected = rowBytes * rows;
    long length = d.byteCounts()[index];
    byte[] raw;
    if (length == 0) {
      // A block never written (a sparse file): zeros, as GDAL reads it.
      raw = new byte[expected];
    } else {
      if (length > Integer.MAX_VALUE - 16) {
        throw new IOException("a TIFF block of " + length + " bytes");
      }
      ByteBuffer b = read(channel, d.offsets()[index], (int) length, order);
      raw = BlockCodec.decompress(d.compression(), b.array(), expected);
    }
    if (raw.length < expected) {
      throw new IOException(
          "TIFF block " + index + " holds " + raw.length + " bytes, " + expected + " expected");
    }
    return BlockCodec.samples(raw, d, bands, rows, order);
  }

  /** Reads {@code length} bytes at {@code at}, all of them. */
  private static ByteBuffer read(RangeReader channel, long at, int length, ByteOrder order)
      throws IOException {
    return ByteBuffer.wrap(channel.read(at, length)).order(order);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
