package io.tilebeam.transforms.raster;

/**
 * The value of one band at a point of a source level, computed as GDAL's warp kernel computes it
 * ({@code gdalwarp -r near|bilinear|cubic} with source no data): only pixels with data take part,
 * their weights normalised, so a point next to no data or to the image's edge keeps a value where
 * any pixel of its kernel has one. Points are in the level's pixel coordinates with pixel (i, j)
 * covering [i, i + 1) × [j, j + 1); a result of NaN is no data.
 *
 * <p>Bilinear and cubic use their four-sample formulas when the tile is not coarser than the level
 * by more than 5% on either axis (GDAL's threshold), and otherwise a kernel widened by the inverse
 * of the scale (a down-sampling filter), as GDAL does.
 */
final class Kernels {

  /** GDAL's least total weight of a valid result. */
  private static final double LEAST_WEIGHT = 0.00001;

  private final RasterWindow window;
  private double[] weightsX = new double[8];
  private final long levelWidth;
  private final long levelHeight;

  /** Kernels over {@code window}, part of a level of {@code levelWidth × levelHeight} pixels. */
  Kernels(RasterWindow window, long levelWidth, long levelHeight) {
    this.window = window;
    this.levelWidth = levelWidth;
    this.levelHeight = levelHeight;
  }

  /** The sample of {@code band} of the level's pixel (c, r); NaN without data. */
  private double pixel(int band, long c, long r) {
    return window.at(band, (int) (c - window.column), (int) (r - window.row));
  }

  /** The pixel the point falls in. */
  double nearest(int band, double x, double y) {
    return pixel(band, (long) Math.floor(x + 1e-10), (long) Math.floor(y + 1e-10));
  }

  /**
   * Bilinear over the four pixels whose centres surround the point, valid ones only (GDAL's
   * GWKBilinearResample4Sample).
   */
  double bilinear(int band, double x, double y) {
    long c = (long) Math.floor(x - 0.5);
    long r = (long) Math.floor(y - 0.5);
    double fx = x - 0.5 - c;
    double fy = y - 0.5 - r;
    double sum = 0;
    double weight = 0;
    double w = (1 - fx) * (1 - fy);
    double v = pixel(band, c, r);
    if (!Double.isNaN(v)) {
      sum += v * w;
      weight += w;
    }
    w = fx * (1 - fy);
    v = pixel(band, c + 1, r);
    if (!Double.isNaN(v)) {
      sum += v * w;
      weight += w;
    }
    w = (1 - fx) * fy;
    v = pixel(band, c, r + 1);
    if (!Double.isNaN(v)) {
      sum += v * w;
      weight += w;
    }
    w = fx * fy;
    v = pixel(band, c + 1, r + 1);
    if (!Double.isNaN(v)) {
      sum += v * w;
      weight += w;
    }
    if (weight < LEAST_WEIGHT) {
      return Double.NaN;
    }
    return weight == 1.0 ? sum : sum / weight;
  }

  /**
   * Cubic convolution (Keys, a = -0.5) over the 4 × 4 pixels around the point; bilinear, as above,
   * at the image's edge or where any of the 16 has no data (GDAL's GWKCubicResample4Sample).
   */
  double cubic(int band, double x, double y) {
    // Truncation, not floor, as GDAL: points left of the first centre fall back to bilinear below.
    long c = (long) (x - 0.5);
    long r = (long) (y - 0.5);
    if (c - 1 < 0 || c + 2 >= levelWidth || r - 1 < 0 || r + 2 >= levelHeight) {
      return bilinear(band, x, y);
    }
    double[] wx = cubicWeights(x - 0.5 - c);
    double[] wy = cubicWeights(y - 0.5 - r);
    double value = 0;
    for (int j = 0; j < 4; j++) {
      double row = 0;
      for (int i = 0; i < 4; i++) {
        double v = pixel(band, c - 1 + i, r - 1 + j);
        if (Double.isNaN(v)) {
          return bilinear(band, x, y);
        }
        row += wx[i] * v;
      }
      value += wy[j] * row;
    }
    return value;
  }

  /** The weights of the pixels at -1, 0, 1, 2 from the one {@code t} (0 ≤ t < 1) is from. */
  private static double[] cubicWeights(double t) {
    double half = 0.5 * t;
    double halfSquare = half * t;
    return new double[] {
      half * (-1 + t * (2 - t)),
      1 + halfSquare * (-5 + 3 * t),
      half * (1 + t * (4 - 3 * t)),
      halfSquare * (-1 + t)
    };
  }

  /**
   * Bilinear or cubic ({@code kernel}) widened by 1 / scale on each axis whose scale is below 1,
   * over the valid pixels only, their weights normalised (GDAL's GWKResample).
   */
  double widened(int band, double x, double y, Resampling kernel, double scaleX, double scaleY) {
    boolean cubic = kernel == Resampling.CUBIC;
    long c = (long) Math.floor(x - 0.5);
    long r = (long) Math.floor(y - 0.5);
    double fx = x - 0.5 - c;
    double fy = y - 0.5 - r;
    double support = kernel.radius();
    double sx = Math.min(scaleX, 1);
    double sy = Math.min(scaleY, 1);
    // Only the pixels the kernel weighs: |i - fx| * sx < support (GDAL visits a wider square
    // whose other pixels weigh nothing, so the sums are the same).
    // Clipped to the level and to the window (whose pixels beyond it would read as no data).
    long wc = c - window.column;
    long wr = r - window.row;
    int iMin = (int) Math.max(Math.ceil(fx - support / sx), Math.max(-c, -wc));
    int iMax =
        (int)
            Math.min(
                Math.floor(fx + support / sx), Math.min(levelWidth - 1 - c, window.width - 1 - wc));
    int jMin = (int) Math.max(Math.ceil(fy - support / sy), Math.max(-r, -wr));
    int jMax =
        (int)
            Math.min(
                Math.floor(fy + support / sy),
                Math.min(levelHeight - 1 - r, window.height - 1 - wr));
    int n = iMax - iMin + 1;
    if (n <= 0 || jMax < jMin) {
      return Double.NaN;
    }
    if (weightsX.length < n) {
      weightsX = new double[n];
    }
    for (int i = iMin; i <= iMax; i++) {
      double d = (i - fx) * sx;
      weightsX[i - iMin] = cubic ? keys(d) : triangle(d);
    }
    float[] data = window.band(band);
    double sum = 0;
    double weight = 0;
    for (int j = jMin; j <= jMax; j++) {
      double dy = (j - fy) * sy;
      double wy = cubic ? keys(dy) : triangle(dy);
      if (wy == 0) {
        continue;
      }
      int base = (int) ((wr + j) * window.width + wc + iMin);
      double rowSum = 0;
      double rowWeight = 0;
      for (int k = 0; k < n; k++) {
        float v = data[base + k];
        if (v == v) {
          double w = weightsX[k];
          rowSum += v * w;
          rowWeight += w;
        }
      }
      sum += rowSum * wy;
      weight += rowWeight * wy;
    }
    if (weight < 0.000001) {
      return Double.NaN;
    }
    return weight < 0.99999 || weight > 1.00001 ? sum / weight : sum;
  }

  private static double triangle(double d) {
    double a = Math.abs(d);
    return a <= 1 ? 1 - a : 0;
  }

  private static double keys(double d) {
    double a = Math.abs(d);
    double square = d * d;
    if (a <= 1) {
      return square * (1.5 * a - 2.5) + 1;
    }
    if (a <= 2) {
      return square * (-0.5 * a + 2.5) - 4 * a + 2;
    }
    return 0;
  }
}
