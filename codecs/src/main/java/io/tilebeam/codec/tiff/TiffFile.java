package io.tilebeam.codec.tiff;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The image directories of a TIFF file (classic or BigTIFF, either byte order), and its blocks read
 * by position. Only the layout tags are read here; georeferencing is SIS's part.
 *
 * <p>Not thread-safe: one per reading worker.
 */
public final class TiffFile implements java.io.Closeable {

  private static final int NEW_SUBFILE_TYPE = 254;
  private static final int IMAGE_WIDTH = 256;
  private static final int IMAGE_LENGTH = 257;
  private static final int BITS_PER_SAMPLE = 258;
  private static final int COMPRESSION = 259;
  private static final int PHOTOMETRIC = 262;
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
  private static final int JPEG_TABLES = 347;
  private static final int GDAL_NODATA = 42113;

  private static final Set<Integer> WANTED =
      Set.of(
          NEW_SUBFILE_TYPE,
          IMAGE_WIDTH,
          IMAGE_LENGTH,
          BITS_PER_SAMPLE,
          COMPRESSION,
          PHOTOMETRIC,
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
          SAMPLE_FORMAT,
          JPEG_TABLES,
          GeoTiffTags.MODEL_PIXEL_SCALE,
          GeoTiffTags.MODEL_TIEPOINT,
          GeoTiffTags.MODEL_TRANSFORMATION,
          GeoTiffTags.GEO_KEY_DIRECTORY,
          GeoTiffTags.GEO_DOUBLE_PARAMS,
          GeoTiffTags.GEO_ASCII_PARAMS,
          GDAL_NODATA);

  /** More directories than any real file has: a loop in the chain is a damaged file. */
  private static final int MOST_DIRECTORIES = 10_000;

  /**
   * The most samples (pixels × bands stored together) one block may hold: what is decoded at once
   * is bounded by it (64 MiB of floats), whatever a header claims. Tiled files (COGs: 256 or 512 a
   * side) and strips of a few rows are far below it; one strip holding a whole large image (more
   * than 4096 × 4096 pixels of one band) is refused, with the advice to tile it.
   */
  static final long MOST_BLOCK_SAMPLES = 1L << 24;

  /** The most bands read: more than hyperspectral imagery has (a few hundred). */
  static final int MOST_BANDS = 1024;

  private final RangeReader channel;
  private final ByteOrder order;
  private final List<TiffDirectory> directories;
  private final Optional<Double> nodata;

  private TiffFile(
      RangeReader channel,
      ByteOrder order,
      List<TiffDirectory> directories,
      Optional<Double> nodata) {
    this.channel = channel;
    this.order = order;
    this.directories = directories;
    this.nodata = nodata;
  }

  /**
   * Opens a TIFF file and reads its directories.
   *
   * @throws IOException when it cannot be read or is not a TIFF
   */
  public static TiffFile open(Path file) throws IOException {
    return open(RangeReader.of(file));
  }

  /**
   * Reads the directories of a TIFF's bytes; the file owns {@code channel} and closes it. Every
   * size, count and position a directory states is checked against the file before it is used.
   *
   * @throws IOException when they cannot be read or are not a TIFF, naming what is wrong
   */
  public static TiffFile open(RangeReader channel) throws IOException {
    try {
      long size = channel.size();
      if (size < 8) {
        throw new IOException("not a TIFF file (" + size + " bytes)");
      }
      ByteBuffer head = read(channel, 0, (int) Math.min(16, size), ByteOrder.LITTLE_ENDIAN);
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
      if (big && size < 16) {
        throw new IOException("not a BigTIFF file (" + size + " bytes)");
      }
      long next = big ? head.getLong(8) : head.getInt(4) & 0xFFFFFFFFL;
      List<TiffDirectory> directories = new ArrayList<>();
      TiffTags first = null;
      Set<Long> seen = new HashSet<>();
      while (next != 0) {
        if (directories.size() == MOST_DIRECTORIES || !seen.add(next)) {
          throw new IOException("the TIFF's directory chain does not end");
        }
        TiffTags.Read read = TiffTags.read(channel, order, big, next, WANTED);
        if (first == null) {
          first = read.tags();
        }
        directories.add(directory(read.tags(), directories.size()));
        next = read.next();
      }
      if (directories.isEmpty()) {
        throw new IOException("the TIFF holds no image");
      }
      GeoTiffTags.check(first);
      return new TiffFile(channel, order, directories, nodata(first));
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The directories, in file order. */
  public List<TiffDirectory> directories() {
    return directories;
  }

  /**
   * The no-data value the first image declares in GDAL's {@code GDAL_NODATA} tag (read from the
   * file, for every sample type), or empty when it declares none.
   */
  public Optional<Double> nodata() {
    return nodata;
  }

  /**
   * The value of the {@code GDAL_NODATA} tag of {@code first}, or empty.
   *
   * @throws IOException when the tag holds something that is not a number
   */
  private static Optional<Double> nodata(TiffTags first) throws IOException {
    String text = first.text(GDAL_NODATA);
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    String t = text.trim();
    try {
      return Optional.of(
          switch (t.toLowerCase(java.util.Locale.ROOT)) {
            case "nan", "-nan" -> Double.NaN;
            case "inf", "+inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(t);
          });
    } catch (NumberFormatException e) {
      throw new IOException(
          "its GDAL_NODATA tag holds '" + printable(t) + "', which is not a number", e);
    }
  }

  /**
   * The first image and its overviews, from the finest: what a reader of the first image can use
   * (transparency masks and other images left out).
   */
  public List<TiffDirectory> levels() {
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

  /**
   * The transparency mask of {@code image} (a directory of one bit a pixel of its size, as GDAL
   * writes an internal mask after each image and overview), or null when it has none.
   */
  public TiffDirectory maskOf(TiffDirectory image) {
    for (TiffDirectory d : directories) {
      if (d.masks(image.width(), image.height())) {
        return d;
      }
    }
    return null;
  }

  private static TiffDirectory directory(TiffTags tags, int index) throws IOException {
    String which = index == 0 ? "the TIFF's image" : "TIFF image " + (index + 1);
    long width = tags.number(IMAGE_WIDTH, -1);
    long height = tags.number(IMAGE_LENGTH, -1);
    if (width <= 0 || height <= 0) {
      throw new IOException(which + " has no width or height");
    }
    long bands = tags.number(SAMPLES_PER_PIXEL, 1);
    if (bands < 1 || bands > MOST_BANDS) {
      throw new IOException(
          which
              + " has "
              + bands
              + " samples a pixel (SamplesPerPixel); tilebeam reads 1 to "
              + MOST_BANDS);
    }
    boolean planar = tags.number(PLANAR_CONFIGURATION, 1) == 2;
    boolean tiled = tags.has(TILE_OFFSETS);
    long blockWidth = tiled ? tags.number(TILE_WIDTH, -1) : width;
    long blockHeight =
        tiled
            ? tags.number(TILE_LENGTH, -1)
            : Math.min(height, tags.number(ROWS_PER_STRIP, height));
    long perBlock = planar ? 1 : bands;
    if (blockWidth <= 0 || blockHeight <= 0) {
      throw new IOException(which + " has blocks of " + blockWidth + " x " + blockHeight);
    }
    if (blockWidth > MOST_BLOCK_SAMPLES
        || blockHeight > MOST_BLOCK_SAMPLES
        || blockWidth * blockHeight * perBlock > MOST_BLOCK_SAMPLES) {
      throw new IOException(
          which
              + " is stored in blocks of "
              + blockWidth
              + " x "
              + blockHeight
              + " pixels"
              + (perBlock > 1 ? " of " + perBlock + " bands" : "")
              + ", more than the "
              + MOST_BLOCK_SAMPLES
              + " samples tilebeam decodes at once; tile it first (gdal_translate -of COG)");
    }
    long[] bits = tags.numbers(BITS_PER_SAMPLE);
    long[] formats = tags.numbers(SAMPLE_FORMAT);
    int bitsPerSample = (int) same(bits, 1, which, "BitsPerSample");
    int sampleFormat = (int) same(formats, 1, which, "SampleFormat");
    long[] offsets = tags.numbers(tiled ? TILE_OFFSETS : STRIP_OFFSETS);
    long[] counts = tags.numbers(tiled ? TILE_BYTE_COUNTS : STRIP_BYTE_COUNTS);
    return new TiffDirectory(
        width,
        height,
        (int) blockWidth,
        (int) blockHeight,
        offsets == null ? new long[0] : offsets,
        counts == null ? new long[0] : counts,
        bitsPerSample,
        sampleFormat,
        (int) bands,
        planar,
        (int) tags.number(COMPRESSION, 1),
        (int) tags.number(PREDICTOR, 1),
        tags.number(NEW_SUBFILE_TYPE, 0),
        (int) tags.number(PHOTOMETRIC, -1),
        tags.bytes(JPEG_TABLES));
  }

  /** A per-band tag's one value: every band must have the same. */
  private static long same(long[] values, long otherwise, String which, String name)
      throws IOException {
    if (values == null || values.length == 0) {
      return otherwise;
    }
    for (long v : values) {
      if (v != values[0]) {
        throw new IOException(
            which + " has bands of different " + name + " " + values[0] + " and " + v);
      }
    }
    return values[0];
  }

  /** Text read from a file, for a message: at most 40 characters, control characters as '?'. */
  static String printable(String text) {
    String cut = text.length() > 40 ? text.substring(0, 40) + "..." : text;
    return cut.replaceAll("[\\p{Cntrl}\\p{Cf}]", "?");
  }

  /**
   * The samples of one block, decoded: for each band of the block (all bands together when they are
   * stored together, one band when apart), row by row over the block's full width and height, as
   * floats.
   *
   * @param index the block's index in the directory's offsets
   * @param rows the block's rows that hold image data (strips at the image's end are shorter)
   * @throws IOException when the block cannot be read or decoded, or decodes to more or fewer bytes
   *     than its layout says it holds
   */
  public float[] readBlock(TiffDirectory d, int index, int rows) throws IOException {
    int bands = d.planar() ? 1 : d.samplesPerPixel();
    long length = d.byteCounts()[index];
    if (length == 0) {
      // A block never written (a sparse file): zeros, as GDAL reads it. Its size is bounded by
      // the directory's check (MOST_BLOCK_SAMPLES), not by bytes in the file.
      return new float[d.blockWidth() * d.blockHeight() * bands];
    }
    TiffTags.within(d.offsets()[index], length, channel.size(), "TIFF block " + index);
    byte[] stored = channel.read(d.offsets()[index], (int) length);
    byte[] raw = BlockCodec.decode(d, stored, rows, bands);
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
