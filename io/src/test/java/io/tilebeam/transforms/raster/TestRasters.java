package io.tilebeam.transforms.raster;

import io.tilebeam.io.source.Gdal;
import io.tilebeam.transforms.crs.Bounds;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Raster sources for tests, made as users make them: with GDAL's tools. */
public final class TestRasters {

  /** The no-data value of {@link #utmDem}. */
  public static final short NODATA = -9999;

  private TestRasters() {}

  /**
   * A seeded elevation grid as a Cloud Optimized GeoTIFF in UTM zone 32N (EPSG:32632), 16-bit: 600
   * × 400 cells of 100 m from (400000, 5200000), about 7.68–8.48°E, 46.95–47.31°N, with no data
   * ({@link #NODATA}) in a 70 × 50 block.
   */
  public static Path utmDem(Path dir) throws IOException {
    Path asc = dir.resolve("dem.asc");
    Random random = new Random(7);
    try (BufferedWriter w = Files.newBufferedWriter(asc)) {
      w.write("ncols 600\nnrows 400\nxllcorner 400000\nyllcorner 5200000\ncellsize 100\n");
      w.write("NODATA_value " + NODATA + "\n");
      for (int j = 0; j < 400; j++) {
        StringBuilder row = new StringBuilder();
        for (int i = 0; i < 600; i++) {
          boolean hole = i > 250 && i < 320 && j > 140 && j < 190;
          long v =
              hole
                  ? NODATA
                  : Math.round(500 + 300 * Math.sin(i / 37.0) * Math.cos(j / 23.0))
                      + random.nextInt(20);
          row.append(i == 0 ? "" : " ").append(v);
        }
        w.write(row.append('\n').toString());
      }
    }
    Path tif = dir.resolve("dem.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-a_srs",
        "EPSG:32632",
        "-ot",
        "Int16",
        "-of",
        "COG",
        "-co",
        "COMPRESS=DEFLATE",
        asc.toString(),
        tif.toString());
    Files.delete(asc);
    return tif;
  }

  /** The bounds of Web Mercator (EPSG:3857) tile {@code z/x/y}. */
  public static Bounds webMercator(int z, long x, long y) {
    double world = 20037508.342789244;
    double size = 2 * world / (1L << z);
    double minX = -world + x * size;
    double maxY = world - y * size;
    return new Bounds(minX, maxY - size, minX + size, maxY);
  }

  /**
   * The west (columns 0-349) and east (250-599) parts of {@link #utmDem}, overlapping by 100
   * columns, as {@code a-west.tif} and {@code b-east.tif} in {@code dir}; {@code eastOptions} are
   * more {@code gdal_translate} options for the east part.
   */
  public static List<Path> westAndEast(Path dem, Path dir, String... eastOptions)
      throws IOException {
    Path west = dir.resolve("a-west.tif");
    Path east = dir.resolve("b-east.tif");
    Gdal.run(
        "gdal_translate", "-q", "-srcwin", "0", "0", "350", "400", dem.toString(), west.toString());
    List<String> args = new ArrayList<>(List.of("-q", "-srcwin", "250", "0", "350", "400"));
    args.addAll(List.of(eastOptions));
    args.addAll(List.of(dem.toString(), east.toString()));
    Gdal.run("gdal_translate", args.toArray(String[]::new));
    return List.of(west, east);
  }
}
