package io.tilebeam.transforms.raster;

import io.tilebeam.codec.tiff.TiffDirectory;

/**
 * Source pixels held in memory for resampling: some bands over a rectangle of one level's grid, as
 * 32-bit floats (exact for the 8- and 16-bit integer and 32-bit float samples read), a pixel with
 * no data NaN. Pixels outside the rectangle read as NaN too, so a kernel treats them as GDAL treats
 * pixels beyond the image's edge.
 */
final class RasterWindow {

  /** The rectangle's first column and row in the level's grid. */
  final long column;

  final long row;

  /** Its size. */
  final int width;

  final int height;

  /** One array per band, row by row. */
  private final float[][] bands;

  private RasterWindow(long column, long row, int width, int height, float[][] bands) {
    this.column = column;
    this.row = row;
    this.width = width;
    this.height = height;
    this.bands = bands;
  }

  /**
   * Reads {@code width × height} pixels of {@code bands} from a level of a TIFF, starting at its
   * ({@code column}, {@code row}), block by block through {@code cache}; samples equal to {@code
   * nodata} (if not null) become NaN.
   */
  static RasterWindow read(
      BlockCache cache,
      SourceLevel level,
      int[] bands,
      long column,
      long row,
      int width,
      int height,
      Double nodata)
      throws java.io.IOException {
    TiffDirectory d = level.image();
    float[][] out = new float[bands.length][width * height];
    int bw = d.blockWidth();
    int bh = d.blockHeight();
    long c1 = Math.min(d.width(), column + width);
    long r1 = Math.min(d.height(), row + height);
    int spp = d.planar() ? 1 : d.samplesPerPixel();
    for (long by = row / bh; by * bh < r1; by++) {
      int rows = (int) Math.min(bh, d.height() - by * bh);
      for (long bx = column / bw; bx * bw < c1; bx++) {
        int index = (int) (by * d.blocksAcross() + bx);
        long y0 = Math.max(row, by * bh);
        long y1 = Math.min(r1, by * bh + rows);
        long x0 = Math.max(column, bx * bw);
        long x1 = Math.min(c1, (bx + 1) * bw);
        for (int b = 0; b < bands.length; b++) {
          int blockIndex =
              d.planar() ? bands[b] * d.blocksAcross() * d.blocksDown() + index : index;
          int sample = d.planar() ? 0 : bands[b];
          float[] block = cache.block(level, blockIndex, rows);
          float[] target = out[b];
          for (long y = y0; y < y1; y++) {
            int from = (int) (((y - by * bh) * bw + (x0 - bx * bw)) * spp + sample);
            int to = (int) ((y - row) * width + (x0 - column));
            for (int x = 0; x < x1 - x0; x++) {
              target[to + x] = block[from + x * spp];
            }
          }
        }
      }
    }
    if (level.mask() != null) {
      mask(cache, level, out, column, row, width, height);
    }
    if (nodata != null) {
      float n = nodata.floatValue();
      if (n == nodata) {
        for (float[] b : out) {
          for (int i = 0; i < b.length; i++) {
            if (b[i] == n) {
              b[i] = Float.NaN;
            }
          }
        }
      }
    }
    return new RasterWindow(column, row, width, height, out);
  }

  /**
   * Makes the window's pixels that the level's transparency mask leaves out (0 in the mask) no data
   * in every band, as GDAL reads an image through its mask.
   */
  private static void mask(
      BlockCache cache,
      SourceLevel level,
      float[][] bands,
      long column,
      long row,
      int width,
      int height)
      throws java.io.IOException {
    TiffDirectory m = level.mask();
    int bw = m.blockWidth();
    int bh = m.blockHeight();
    long c1 = Math.min(m.width(), column + width);
    long r1 = Math.min(m.height(), row + height);
    for (long by = row / bh; by * bh < r1; by++) {
      int rows = (int) Math.min(bh, m.height() - by * bh);
      for (long bx = column / bw; bx * bw < c1; bx++) {
        float[] block = cache.block(level, true, (int) (by * m.blocksAcross() + bx), rows);
        long y0 = Math.max(row, by * bh);
        long y1 = Math.min(r1, by * bh + rows);
        long x0 = Math.max(column, bx * bw);
        long x1 = Math.min(c1, (bx + 1) * bw);
        for (long y = y0; y < y1; y++) {
          int from = (int) ((y - by * bh) * bw + (x0 - bx * bw));
          int to = (int) ((y - row) * width + (x0 - column));
          for (int x = 0; x < x1 - x0; x++) {
            if (block[from + x] == 0) {
              for (float[] b : bands) {
                b[to + x] = Float.NaN;
              }
            }
          }
        }
      }
    }
  }

  /**
   * The sample of {@code band} at the level's column {@code c} and row {@code r}, less the window's
   * origin ({@code c - column}, {@code r - row}); NaN outside the window or without data.
   */
  float at(int band, int c, int r) {
    if (c < 0 || r < 0 || c >= width || r >= height) {
      return Float.NaN;
    }
    return bands[band][r * width + c];
  }

  /** The samples of {@code band}, row by row ({@link #width} a row): read, never written. */
  float[] band(int band) {
    return bands[band];
  }
}
