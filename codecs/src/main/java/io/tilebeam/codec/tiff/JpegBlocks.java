package io.tilebeam.codec.tiff;

import java.awt.image.Raster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * JPEG-compressed TIFF blocks (compression 7, as {@code gdal_translate -co COMPRESS=JPEG} writes
 * them) decoded by the JDK's JPEG reader (ImageIO): the file's shared {@code JPEGTables} put before
 * each block's abbreviated stream, the components read raw, and YCbCr (photometric 6) made RGB with
 * libjpeg's own fixed-point arithmetic, which is what GDAL reads through libtiff, so the colours
 * are GDAL's to the unit. The stream's stated size is checked against the block's before any pixel
 * is decoded.
 */
final class JpegBlocks {

  private static final int YCBCR = 6;
  private static final int SCALE_BITS = 16;
  private static final int ONE_HALF = 1 << (SCALE_BITS - 1);

  private JpegBlocks() {}

  /**
   * The block's samples as 8-bit bytes, a pixel's bands together, row by row over its full width.
   *
   * @throws IOException when it is not a JPEG stream of the block's size and bands
   */
  static byte[] decode(TiffDirectory d, byte[] stored, int rows, int bands) throws IOException {
    byte[] stream = withTables(d.jpegTables(), stored);
    Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg");
    if (!readers.hasNext()) {
      throw new IOException("no JPEG reader in this Java runtime");
    }
    ImageReader reader = readers.next();
    // In memory: ImageIO's default stream caches to a temporary file.
    try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(stream))) {
      reader.setInput(in, true, true);
      int width = reader.getWidth(0);
      int height = reader.getHeight(0);
      if (width != d.blockWidth() || height < rows || height > d.blockHeight()) {
        throw new IOException(
            "a JPEG TIFF block of "
                + width
                + " x "
                + height
                + " pixels where the file's blocks are "
                + d.blockWidth()
                + " x "
                + d.blockHeight());
      }
      Raster raster = reader.readRaster(0, null);
      if (raster.getNumBands() != bands) {
        throw new IOException(
            "a JPEG TIFF block of "
                + raster.getNumBands()
                + " bands where "
                + bands
                + " are stored");
      }
      byte[] out = new byte[width * height * bands];
      int[] row = new int[width * bands];
      for (int y = 0; y < height; y++) {
        raster.getPixels(raster.getMinX(), raster.getMinY() + y, width, 1, row);
        for (int i = 0; i < row.length; i++) {
          out[y * row.length + i] = (byte) row[i];
        }
      }
      if (d.photometric() == YCBCR && bands == 3) {
        toRgb(out);
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw new IOException("a JPEG TIFF block cannot be decoded: " + e.getMessage(), e);
    } finally {
      reader.dispose();
    }
  }

  /** A block's abbreviated stream made whole: the tables' markers, then the block's own. */
  private static byte[] withTables(byte[] tables, byte[] block) throws IOException {
    if (block.length < 4 || (block[0] & 0xff) != 0xFF || (block[1] & 0xff) != 0xD8) {
      throw new IOException("a JPEG TIFF block that is not a JPEG stream");
    }
    if (tables == null || tables.length < 4) {
      return block;
    }
    // Tables: SOI, DQT/DHT..., EOI. Drop their EOI and the block's SOI.
    byte[] out = new byte[tables.length - 2 + block.length - 2];
    System.arraycopy(tables, 0, out, 0, tables.length - 2);
    System.arraycopy(block, 2, out, tables.length - 2, block.length - 2);
    return out;
  }

  /**
   * YCbCr to RGB in place, as libjpeg's {@code jdcolor.c} computes it: fixed point of 16 bits,
   * rounded, clamped to a byte.
   */
  private static void toRgb(byte[] pixels) {
    for (int i = 0; i < pixels.length; i += 3) {
      int y = pixels[i] & 0xff;
      int cb = (pixels[i + 1] & 0xff) - 128;
      int cr = (pixels[i + 2] & 0xff) - 128;
      int r = y + ((fix(1.40200) * cr + ONE_HALF) >> SCALE_BITS);
      int g = y + ((-fix(0.34414) * cb - fix(0.71414) * cr + ONE_HALF) >> SCALE_BITS);
      int b = y + ((fix(1.77200) * cb + ONE_HALF) >> SCALE_BITS);
      pixels[i] = clamp(r);
      pixels[i + 1] = clamp(g);
      pixels[i + 2] = clamp(b);
    }
  }

  private static int fix(double x) {
    return (int) (x * (1L << SCALE_BITS) + 0.5);
  }

  private static byte clamp(int v) {
    return (byte) Math.max(0, Math.min(255, v));
  }
}
