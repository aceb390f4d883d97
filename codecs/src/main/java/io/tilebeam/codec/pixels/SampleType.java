package io.tilebeam.codec.pixels;

import java.util.Locale;

/**
 * The sample types raster tiles hold: 8- and 16-bit integers and 32-bit floats, as GeoTIFF stores
 * them ({@code BitsPerSample}, {@code SampleFormat}: 1 unsigned, 2 signed, 3 floating point).
 */
public enum SampleType {
  /** Unsigned 8-bit integers (0 to 255). */
  UINT8(8, 1, 0, 255),
  /** Signed 16-bit integers. */
  INT16(16, 2, Short.MIN_VALUE, Short.MAX_VALUE),
  /** Unsigned 16-bit integers. */
  UINT16(16, 1, 0, 65535),
  /** 32-bit IEEE floats. */
  FLOAT32(32, 3, -Float.MAX_VALUE, Float.MAX_VALUE);

  private final int bits;
  private final int sampleFormat;
  private final double min;
  private final double max;

  SampleType(int bits, int sampleFormat, double min, double max) {
    this.bits = bits;
    this.sampleFormat = sampleFormat;
    this.min = min;
    this.max = max;
  }

  /** Bits a sample. */
  public int bits() {
    return bits;
  }

  /** The TIFF {@code SampleFormat} code. */
  public int sampleFormat() {
    return sampleFormat;
  }

  /**
   * The type of TIFF samples of {@code bits} bits and {@code SampleFormat} {@code sampleFormat}, or
   * null when it is none of these.
   */
  public static SampleType ofTiff(int bits, int sampleFormat) {
    for (SampleType t : values()) {
      if (t.bits == bits && t.sampleFormat == sampleFormat) {
        return t;
      }
    }
    return null;
  }

  /** Whether samples are whole numbers. */
  public boolean integral() {
    return this != FLOAT32;
  }

  /** The name a job gives ({@code uint8}, {@code int16}, {@code uint16}, {@code float32}). */
  public String spelling() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code value} as this type stores it, as GDAL's warper stores it: integers rounded to the
   * nearest, halves up ({@code floor(v + 0.5)}), and clamped to the type's range; floats narrowed
   * to 32 bits.
   */
  public double store(double value) {
    if (!integral()) {
      return (float) value;
    }
    return Math.max(min, Math.min(max, Math.floor(value + 0.5)));
  }

  /**
   * {@code value} stored, moved one step off {@code nodata} if it would land on it (GDAL's warper
   * does the same): a pixel with data never reads as no data.
   */
  public double storeAvoiding(double value, double nodata) {
    double v = store(value);
    if (v != nodata) {
      return v;
    }
    if (!integral()) {
      return Math.nextUp((float) v) == Float.POSITIVE_INFINITY
          ? Math.nextDown((float) v)
          : Math.nextUp((float) v);
    }
    return v == max ? v - 1 : v + 1;
  }

  /** Whether {@code value} is one this type can hold exactly. */
  public boolean holds(double value) {
    return integral()
        ? value == Math.rint(value) && value >= min && value <= max
        : Double.isNaN(value) || (float) value == value;
  }
}
