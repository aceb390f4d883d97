package io.tilebeam.io.raster;

import java.util.Arrays;

/**
 * One tile's pixels, ready to encode: {@code width × height} pixels of {@code bands} samples each,
 * row by row from the top-left, a pixel's bands together; every sample already stored as {@link
 * #type} stores it ({@link SampleType#store}); pixels with no data hold {@link #nodata}.
 *
 * @param width pixels a row
 * @param height rows
 * @param bands samples a pixel
 * @param type the sample type
 * @param nodata the value of pixels without data (NaN allowed for floats), or null for none
 * @param samples {@code width × height × bands} samples
 */
public record RasterTile(
    int width, int height, int bands, SampleType type, Double nodata, double[] samples)
    implements java.io.Serializable {

  /** Checks the sizes. */
  public RasterTile {
    if (width < 1 || height < 1 || bands < 1) {
      throw new IllegalArgumentException(
          "a raster tile needs pixels and bands: " + width + "x" + height + "x" + bands);
    }
    if (samples.length != (long) width * height * bands) {
      throw new IllegalArgumentException(
          samples.length + " samples for " + width + "x" + height + "x" + bands);
    }
  }

  /** Sample {@code band} of the pixel in column {@code x}, row {@code y}. */
  public double sample(int x, int y, int band) {
    return samples[(y * width + x) * bands + band];
  }

  /** Whether a sample is this tile's no data. */
  private boolean isNodata(double s) {
    return nodata != null && (s == nodata || (Double.isNaN(nodata) && Double.isNaN(s)));
  }

  /** Whether any sample is without data. */
  public boolean anyNodata() {
    for (double s : samples) {
      if (isNodata(s)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fills this tile's samples without data from {@code other}'s (a tile of the same place, size and
   * settings): how a mosaic's later source completes an earlier one without overwriting it.
   */
  void fillFrom(RasterTile other) {
    for (int i = 0; i < samples.length; i++) {
      if (isNodata(samples[i])) {
        samples[i] = other.samples[i];
      }
    }
  }

  /** Whether every pixel is without data. */
  public boolean empty() {
    if (nodata == null) {
      return false;
    }
    double n = nodata;
    for (double s : samples) {
      if (!(s == n || (Double.isNaN(n) && Double.isNaN(s)))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RasterTile t
        && width == t.width
        && height == t.height
        && bands == t.bands
        && type == t.type
        && java.util.Objects.equals(nodata, t.nodata)
        && Arrays.equals(samples, t.samples);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(samples) * 31
        + java.util.Objects.hash(width, height, bands, type, nodata);
  }

  @Override
  public String toString() {
    return "RasterTile["
        + width
        + "x"
        + height
        + "x"
        + bands
        + " "
        + type
        + ", nodata "
        + nodata
        + "]";
  }
}
