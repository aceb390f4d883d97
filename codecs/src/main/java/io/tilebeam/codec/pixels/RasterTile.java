package io.tilebeam.codec.pixels;

import java.util.Arrays;
import java.util.BitSet;

/**
 * One tile's pixels, ready to encode: {@code width × height} pixels of {@code bands} samples each,
 * row by row from the top-left, a pixel's bands together; every sample already stored as {@link
 * #type} stores it ({@link SampleType#store}); which pixels have data is {@link #covered}.
 *
 * <p>A tile with a no-data value holds it in the samples of pixels without data (and a covered
 * pixel never holds it in every band). A tile without one (its source declares none and the job
 * sets none) holds zeros there, and {@link #covered} alone says which pixels the source reaches:
 * the encoders make it transparency (PNG) or a mask (GeoTIFF), so a black pixel of an image stays
 * black and opaque.
 *
 * @param width pixels a row
 * @param height rows
 * @param bands samples a pixel
 * @param type the sample type
 * @param nodata the value of pixels without data (NaN allowed for floats), or null for none
 * @param samples {@code width × height × bands} samples
 * @param covered the pixels with data, by index ({@code y × width + x})
 */
public record RasterTile(
    int width,
    int height,
    int bands,
    SampleType type,
    Double nodata,
    double[] samples,
    BitSet covered)
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
    if (covered.length() > width * height) {
      throw new IllegalArgumentException("pixels covered past the tile's " + width * height);
    }
  }

  /**
   * A tile whose covered pixels are those with a sample other than {@code nodata} (every pixel when
   * it is null).
   */
  public RasterTile(
      int width, int height, int bands, SampleType type, Double nodata, double[] samples) {
    this(
        width,
        height,
        bands,
        type,
        nodata,
        samples,
        coveredBy(width * height, bands, nodata, samples));
  }

  private static BitSet coveredBy(int pixels, int bands, Double nodata, double[] samples) {
    BitSet out = new BitSet(pixels);
    if (nodata == null) {
      out.set(0, pixels);
      return out;
    }
    for (int p = 0; p < pixels; p++) {
      for (int b = 0; b < bands; b++) {
        if (!same(samples[p * bands + b], nodata)) {
          out.set(p);
          break;
        }
      }
    }
    return out;
  }

  /** Sample {@code band} of the pixel in column {@code x}, row {@code y}. */
  public double sample(int x, int y, int band) {
    return samples[(y * width + x) * bands + band];
  }

  /** Whether the pixel in column {@code x}, row {@code y} has data. */
  public boolean covered(int x, int y) {
    return covered.get(y * width + x);
  }

  /** Whether every pixel has data. */
  public boolean full() {
    return covered.cardinality() == width * height;
  }

  private static boolean same(double s, double nodata) {
    return s == nodata || (Double.isNaN(nodata) && Double.isNaN(s));
  }

  /** Whether sample {@code i} is without data: its pixel has none, or it is the no-data value. */
  private boolean isNodata(int i) {
    return !covered.get(i / bands) || (nodata != null && same(samples[i], nodata));
  }

  /** Whether any sample is without data. */
  public boolean anyNodata() {
    for (int i = 0; i < samples.length; i++) {
      if (isNodata(i)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fills this tile's samples without data from {@code other}'s (a tile of the same place, size and
   * settings): how a mosaic's later source completes an earlier one without overwriting it.
   */
  public void fillFrom(RasterTile other) {
    for (int i = 0; i < samples.length; i++) {
      if (isNodata(i) && other.covered.get(i / bands)) {
        samples[i] = other.samples[i];
      }
    }
    covered.or(other.covered);
  }

  /** Whether every pixel is without data. */
  public boolean empty() {
    return covered.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RasterTile t
        && width == t.width
        && height == t.height
        && bands == t.bands
        && type == t.type
        && java.util.Objects.equals(nodata, t.nodata)
        && Arrays.equals(samples, t.samples)
        && covered.equals(t.covered);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(samples) * 31
        + java.util.Objects.hash(width, height, bands, type, nodata, covered);
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
        + ", "
        + covered.cardinality()
        + " pixels with data]";
  }
}
