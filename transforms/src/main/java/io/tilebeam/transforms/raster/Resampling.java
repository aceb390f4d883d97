package io.tilebeam.transforms.raster;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a raster tile's pixels are computed from the source's, by GDAL's names for the same kernels
 * ({@code gdalwarp -r}): the name enters the work key, so a run with another resampling re-keys
 * every tile.
 */
public enum Resampling {
  /** The source pixel the target pixel's centre falls in ({@code near}; {@code nearest} too). */
  NEAREST("nearest", 0),
  /** Bilinear interpolation of the four source pixels around the centre. */
  BILINEAR("bilinear", 1),
  /** Cubic convolution of the 4 × 4 source pixels around the centre (Keys, a = -0.5). */
  CUBIC("cubic", 2);

  private final String spelling;
  private final int radius;

  Resampling(String spelling, int radius) {
    this.spelling = spelling;
    this.radius = radius;
  }

  /** How many source pixels from the point the kernel reaches, before any widening. */
  int radius() {
    return radius;
  }

  /** The name a job gives, and the key holds. */
  public String spelling() {
    return spelling;
  }

  /** The resampling a job names ({@code near} is GDAL's name for {@code nearest}). */
  public static Optional<Resampling> named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("near")) {
      return Optional.of(NEAREST);
    }
    return Arrays.stream(values()).filter(r -> r.spelling.equals(n)).findFirst();
  }

  /** Every name a job may give, for messages. */
  public static String names() {
    return String.join(", ", Arrays.stream(values()).map(Resampling::spelling).toList());
  }
}
