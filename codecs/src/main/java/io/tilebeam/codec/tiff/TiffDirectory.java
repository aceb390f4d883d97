package io.tilebeam.codec.tiff;

/**
 * The layout of one image of a TIFF file (one image file directory): its size, how its pixels are
 * cut into blocks (tiles, or strips of rows) and where each block lies in the file, and how samples
 * are stored and compressed. Enough to read any block straight from the file's bytes.
 *
 * @param width columns
 * @param height rows
 * @param blockWidth columns of a block (the image's width for strips)
 * @param blockHeight rows of a block (rows per strip for strips)
 * @param offsets each block's position in the file, blocks row by row (then band by band when bands
 *     are stored apart)
 * @param byteCounts each block's length in the file (0 for a block never written)
 * @param bitsPerSample bits of one sample
 * @param sampleFormat 1 unsigned integer, 2 signed integer, 3 floating point
 * @param samplesPerPixel bands
 * @param planar whether bands are stored apart (planar configuration 2)
 * @param compression the TIFF compression code
 * @param predictor 1 none, 2 horizontal differencing, 3 floating point
 * @param subfileType the NewSubfileType bits (1 reduced resolution, 4 transparency mask)
 * @param photometric the PhotometricInterpretation code (2 RGB, 6 YCbCr, ...), -1 when absent
 * @param jpegTables the JPEGTables of JPEG-compressed blocks (abbreviated streams), or null
 */
public record TiffDirectory(
    long width,
    long height,
    int blockWidth,
    int blockHeight,
    long[] offsets,
    long[] byteCounts,
    int bitsPerSample,
    int sampleFormat,
    int samplesPerPixel,
    boolean planar,
    int compression,
    int predictor,
    long subfileType,
    int photometric,
    byte[] jpegTables) {

  /**
   * Compression codes this reader decodes: none, LZW, JPEG, deflate (both codes), PackBits, ZSTD.
   */
  static final int NONE = 1;

  static final int LZW = 5;
  static final int JPEG = 7;
  static final int DEFLATE = 8;
  static final int DEFLATE_OLD = 32946;
  static final int PACKBITS = 32773;
  static final int ZSTD = 50000;

  /**
   * Bytes of one row of a block as stored: its full width, the samples it holds together, rounded
   * up to a whole byte (a mask's bits).
   */
  long rowBytes() {
    return ((long) blockWidth * (planar ? 1 : samplesPerPixel) * bitsPerSample + 7) / 8;
  }

  /** Bytes of a whole block as stored before compression. */
  long blockBytes() {
    return rowBytes() * blockHeight;
  }

  /** Blocks across. */
  public int blocksAcross() {
    return (int) ((width + blockWidth - 1) / blockWidth);
  }

  /** Blocks down. */
  public int blocksDown() {
    return (int) ((height + blockHeight - 1) / blockHeight);
  }

  /** Whether it is an overview (a reduced-resolution copy of the first image). */
  boolean overview() {
    return (subfileType & 1) != 0 && !mask();
  }

  /** Whether it is a transparency mask. */
  boolean mask() {
    return (subfileType & 4) != 0;
  }

  /**
   * Whether it is a transparency mask this reader decodes (one bit a pixel, as GDAL writes an
   * internal mask) that covers an image of {@code width × height}.
   */
  boolean masks(long imageWidth, long imageHeight) {
    return mask()
        && width == imageWidth
        && height == imageHeight
        && bitsPerSample == 1
        && samplesPerPixel == 1
        && compression != JPEG
        && unreadableCompression() == null
        && offsets.length >= (long) blocksAcross() * blocksDown()
        && byteCounts.length >= (long) blocksAcross() * blocksDown();
  }

  /**
   * Why its blocks cannot all be in a file of {@code size} bytes (a file cut short), or null when
   * they can.
   */
  public String beyond(long size) {
    int blocks = Math.min(offsets.length, byteCounts.length);
    for (int k = 0; k < blocks; k++) {
      // Compared without adding: an offset and a count near 2^63 must not wrap into the file.
      if (byteCounts[k] != 0
          && (offsets[k] < 0 || byteCounts[k] < 0 || byteCounts[k] > size - offsets[k])) {
        return "the file ends at "
            + size
            + " bytes, before block "
            + k
            + " of a "
            + width
            + " x "
            + height
            + " image (which ends at "
            + Long.toUnsignedString(offsets[k])
            + " + "
            + Long.toUnsignedString(byteCounts[k])
            + "): it is cut short or its block positions are wrong";
      }
    }
    return null;
  }

  private String unreadableCompression() {
    if (compression != NONE
        && compression != LZW
        && compression != JPEG
        && compression != DEFLATE
        && compression != DEFLATE_OLD
        && compression != PACKBITS
        && compression != ZSTD) {
      return "TIFF compression "
          + compression
          + " is not read (none, LZW, JPEG, deflate, PackBits and ZSTD are)";
    }
    return null;
  }

  /** Why this reader cannot read it, or null when it can. */
  public String unreadable() {
    String compressionRefused = unreadableCompression();
    if (compressionRefused != null) {
      return compressionRefused;
    }
    if (compression == JPEG && (bitsPerSample != 8 || sampleFormat != 1 || predictor != 1)) {
      return "JPEG-compressed TIFF blocks of "
          + bitsPerSample
          + "-bit samples are not read (8-bit are)";
    }
    if (predictor < 1 || predictor > 3) {
      return "TIFF predictor " + predictor + " is not read";
    }
    boolean known =
        switch (sampleFormat) {
          case 1, 2 -> bitsPerSample == 8 || bitsPerSample == 16 || bitsPerSample == 32;
          case 3 -> bitsPerSample == 32 || bitsPerSample == 64;
          default -> false;
        };
    if (!known) {
      return bitsPerSample + "-bit samples of TIFF sample format " + sampleFormat + " are not read";
    }
    if (predictor == 3 && sampleFormat != 3) {
      return "the floating-point TIFF predictor on samples that are not floats";
    }
    long blocks = (long) blocksAcross() * blocksDown() * (planar ? samplesPerPixel : 1);
    if (offsets.length < blocks || byteCounts.length < blocks) {
      return "the TIFF lists " + offsets.length + " blocks for an image of " + blocks;
    }
    return null;
  }
}
