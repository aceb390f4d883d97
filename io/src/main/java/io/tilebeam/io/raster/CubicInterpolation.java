package io.tilebeam.io.raster;

import java.awt.Dimension;
import java.nio.DoubleBuffer;
import org.apache.sis.image.Interpolation;

/**
 * Cubic convolution over 4 × 4 source pixels with Keys' kernel, a = -0.5: GDAL's {@code cubic}
 * ({@code gdalwarp -r cubic}), which SIS does not offer. Where the window meets a no-data (NaN)
 * pixel, GDAL's fallback: bilinear over the four pixels around the point.
 */
final class CubicInterpolation extends Interpolation {

  /** The one instance. */
  static final CubicInterpolation INSTANCE = new CubicInterpolation();

  private static final double A = -0.5;
  private static final int SPAN = 4;

  private CubicInterpolation() {}

  @Override
  public Dimension getSupportSize() {
    return new Dimension(SPAN, SPAN);
  }

  /**
   * SIS passes the 4 × 4 window row by row, a pixel's bands together; {@code xfrac}, {@code yfrac}
   * are the point's offsets from the window's second column and row. The buffer's position is left
   * where it was.
   */
  @Override
  public void interpolate(
      DoubleBuffer source,
      int numBands,
      double xfrac,
      double yfrac,
      double[] writeTo,
      int writeToOffset) {
    double[] wx = weights(xfrac);
    double[] wy = weights(yfrac);
    for (int b = 0; b < numBands; b++) {
      writeTo[writeToOffset + b] = 0;
    }
    // Read in place: SIS expects the buffer's position unchanged.
    int start = source.position();
    int at = start;
    for (int row = 0; row < SPAN; row++) {
      for (int col = 0; col < SPAN; col++) {
        double w = wy[row] * wx[col];
        for (int b = 0; b < numBands; b++) {
          writeTo[writeToOffset + b] += w * source.get(at++);
        }
      }
    }
    for (int b = 0; b < numBands; b++) {
      if (Double.isNaN(writeTo[writeToOffset + b])) {
        // No data in the window: as GDAL does, bilinear over the four pixels around the point,
        // which is no data only when one of those is.
        writeTo[writeToOffset + b] = bilinear(source, start, numBands, b, xfrac, yfrac);
      }
    }
  }

  private static double bilinear(
      DoubleBuffer source, int start, int numBands, int band, double xfrac, double yfrac) {
    double v11 = source.get(start + (1 * SPAN + 1) * numBands + band);
    double v12 = source.get(start + (1 * SPAN + 2) * numBands + band);
    double v21 = source.get(start + (2 * SPAN + 1) * numBands + band);
    double v22 = source.get(start + (2 * SPAN + 2) * numBands + band);
    return (1 - yfrac) * ((1 - xfrac) * v11 + xfrac * v12)
        + yfrac * ((1 - xfrac) * v21 + xfrac * v22);
  }

  /** The weights of the four pixels at -1, 0, 1 and 2 from the one the point's offset is from. */
  private static double[] weights(double frac) {
    return new double[] {kernel(frac + 1), kernel(frac), kernel(1 - frac), kernel(2 - frac)};
  }

  private static double kernel(double t) {
    double x = Math.abs(t);
    if (x <= 1) {
      return ((A + 2) * x - (A + 3)) * x * x + 1;
    }
    if (x < 2) {
      return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
    }
    return 0;
  }

  @Override
  public String toString() {
    return "CUBIC";
  }
}
