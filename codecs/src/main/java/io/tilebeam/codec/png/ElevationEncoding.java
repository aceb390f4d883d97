package io.tilebeam.codec.png;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;

/**
 * Elevations packed into 8-bit RGB for web maps that decode them in the browser: Mapzen's Terrarium
 * ({@code h = R × 256 + G + B / 256 - 32768}, 1/256 m steps) and Mapbox's Terrain-RGB ({@code h =
 * -10000 + (R × 65536 + G × 256 + B) × 0.1}, 0.1 m steps). A pixel without data is transparent;
 * every other pixel is opaque. Elevations beyond what an encoding holds are clamped to its range.
 */
public enum ElevationEncoding {
  /** Mapzen Terrarium. */
  TERRARIUM {
    @Override
    int[] rgb(double h) {
      double v = Math.max(0, Math.min(65535.99609375, h + 32768));
      int whole = (int) Math.floor(v);
      return new int[] {whole >> 8, whole & 0xFF, (int) Math.floor((v - whole) * 256)};
    }
  },
  /** Mapbox Terrain-RGB (v1). */
  TERRAIN_RGB {
    @Override
    int[] rgb(double h) {
      long code = Math.round((h + 10000) * 10);
      code = Math.max(0, Math.min((1 << 24) - 1, code));
      return new int[] {(int) (code >> 16), (int) ((code >> 8) & 0xFF), (int) (code & 0xFF)};
    }
  };

  /** The red, green and blue bytes of elevation {@code h}. */
  abstract int[] rgb(double h);

  /** Why a tile of {@code bands} bands cannot be encoded so, or null when it can. */
  public static String refuses(int bands) {
    return bands == 1 ? null : "an elevation encoding takes 1 band, not " + bands;
  }

  /** The tile's elevations as an RGBA tile of 8-bit samples, no data transparent. */
  public RasterTile encode(RasterTile elevations) {
    if (elevations.bands() != 1) {
      throw new IllegalArgumentException(refuses(elevations.bands()));
    }
    int n = elevations.width() * elevations.height();
    double[] rgba = new double[n * 4];
    for (int i = 0; i < n; i++) {
      double h = elevations.samples()[i];
      if (Double.isNaN(h) || !elevations.covered().get(i)) {
        continue;
      }
      int[] c = rgb(h);
      rgba[4 * i] = c[0];
      rgba[4 * i + 1] = c[1];
      rgba[4 * i + 2] = c[2];
      rgba[4 * i + 3] = 255;
    }
    return new RasterTile(elevations.width(), elevations.height(), 4, SampleType.UINT8, null, rgba);
  }
}
