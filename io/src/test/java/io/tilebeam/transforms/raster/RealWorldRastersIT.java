package io.tilebeam.transforms.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.io.source.Gdal;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsResolver;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.opengis.referencing.crs.CoordinateReferenceSystem;

/**
 * The rasters users have, made by GDAL as they make them and read as written (no {@code nodata}
 * given by the job), against {@code gdalwarp -et 0} of the same file tile by tile, Web Mercator
 * zooms 8 to 11:
 *
 * <ul>
 *   <li>RGB imagery of bytes without a no-data value, in strips, LZW with the horizontal predictor,
 *       617 pixels wide (not a multiple of 256); real zeros (black) inside it;
 *   <li>a Float32 COG whose no-data value (-9999, with a hole of it) is in GDAL's {@code
 *       GDAL_NODATA} tag;
 *   <li>a JPEG-compressed COG (YCbCr, as GDAL writes RGB JPEG) of that imagery, and one made from
 *       the imagery with an alpha band, which GDAL turns into the COG's internal mask;
 *   <li>a ZSTD-compressed COG of a 16-bit elevation grid without a no-data value.
 * </ul>
 *
 * <p>Nearest: at least 99.9% of pixels identical; bilinear and cubic: at least 99% within one unit
 * (Float32: within 1e-3 of the value range). Where a source declares no no-data value, GDAL's alpha
 * ({@code -dstalpha}) says where it reaches; tilebeam's coverage must be the same off the alpha's
 * outermost ring, and its values are never moved off zero (GDAL's are not either).
 */
class RealWorldRastersIT {

  private static final int SIZE = 256;
  private static final int WIDTH = 617;
  private static final int HEIGHT = 403;

  @TempDir static Path dir;

  private static Path rgbStrips;
  private static Path float32Cog;
  private static Path jpegCog;
  private static Path zstdCog;
  private static Path maskedJpegCog;

  @BeforeAll
  static void makeSources() throws IOException {
    Random random = new Random(32);
    List<String> bands = new ArrayList<>();
    for (int b = 0; b < 3; b++) {
      int band = b;
      bands.add(
          grid(
              "rgb" + b,
              "",
              (i, j) -> {
                // Dark water (zeros) in a corner, then fields.
                if (i + j < 90) {
                  return 0;
                }
                double v = 128 + 110 * Math.sin((i + 40 * band) / 29.0) * Math.cos(j / 17.0);
                return Math.max(0, Math.min(255, Math.round(v) + random.nextInt(9) - 4));
              }));
    }
    Path vrt = dir.resolve("rgb.vrt");
    List<String> build = new ArrayList<>(List.of("-q", "-separate", vrt.toString()));
    build.addAll(bands);
    Gdal.run("gdalbuildvrt", build.toArray(String[]::new));
    rgbStrips = dir.resolve("rgb-strips.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Byte",
        "-a_srs",
        "EPSG:32632",
        "-a_nodata",
        "none",
        "-co",
        "TILED=NO",
        "-co",
        "COMPRESS=LZW",
        "-co",
        "PREDICTOR=2",
        "-co",
        "PHOTOMETRIC=RGB",
        vrt.toString(),
        rgbStrips.toString());
    jpegCog = dir.resolve("rgb-jpeg.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-of",
        "COG",
        "-co",
        "COMPRESS=JPEG",
        "-co",
        "QUALITY=85",
        rgbStrips.toString(),
        jpegCog.toString());
    // The imagery with an alpha band (0 in a disc), made a JPEG COG: GDAL turns the alpha into the
    // COG's internal mask.
    Path alpha =
        Path.of(
            grid(
                "alpha",
                "",
                (i, j) -> (i - 300) * (i - 300) + (j - 200) * (j - 200) < 90 * 90 ? 0 : 255));
    Path rgba = dir.resolve("rgba.vrt");
    List<String> withAlpha = new ArrayList<>(List.of("-q", "-separate", rgba.toString()));
    withAlpha.addAll(bands);
    withAlpha.add(alpha.toString());
    Gdal.run("gdalbuildvrt", withAlpha.toArray(String[]::new));
    Path rgbaTif = dir.resolve("rgba.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Byte",
        "-a_srs",
        "EPSG:32632",
        "-co",
        "PHOTOMETRIC=RGB",
        "-co",
        "ALPHA=YES",
        rgba.toString(),
        rgbaTif.toString());
    maskedJpegCog = dir.resolve("rgb-jpeg-mask.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-of",
        "COG",
        "-co",
        "COMPRESS=JPEG",
        rgbaTif.toString(),
        maskedJpegCog.toString());
    Path dem =
        Path.of(
            grid(
                "dem",
                "NODATA_value -9999\n",
                (i, j) ->
                    i > 250 && i < 320 && j > 140 && j < 190
                        ? -9999
                        : 800 + 600 * Math.sin(i / 41.0) * Math.cos(j / 27.0) + j / 8.0));
    float32Cog = dir.resolve("dem-float32.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Float32",
        "-a_srs",
        "EPSG:32632",
        "-of",
        "COG",
        dem.toString(),
        float32Cog.toString());
    zstdCog = dir.resolve("dem-zstd.tif");
    Gdal.run(
        "gdal_translate",
        "-q",
        "-ot",
        "Int16",
        "-a_srs",
        "EPSG:32632",
        "-a_nodata",
        "none",
        "-of",
        "COG",
        "-co",
        "COMPRESS=ZSTD",
        "-co",
        "PREDICTOR=2",
        dem.toString(),
        zstdCog.toString());
  }

  /** A value for the cell in column {@code i}, row {@code j}. */
  private interface Cell {
    double at(int i, int j);
  }

  /** An ASCII grid of WIDTH × HEIGHT cells of 100 m in UTM 32N, its path. */
  private static String grid(String name, String header, Cell cell) throws IOException {
    Path asc = dir.resolve(name + ".asc");
    try (BufferedWriter w = Files.newBufferedWriter(asc)) {
      w.write("ncols " + WIDTH + "\nnrows " + HEIGHT + "\nxllcorner 400000\n");
      w.write("yllcorner 5200000\ncellsize 100\n" + header);
      for (int j = 0; j < HEIGHT; j++) {
        StringBuilder row = new StringBuilder();
        for (int i = 0; i < WIDTH; i++) {
          row.append(i == 0 ? "" : " ").append((float) cell.at(i, j));
        }
        w.write(row.append('\n').toString());
      }
    }
    return asc.toString();
  }

  private static Path source(String name) {
    return switch (name) {
      case "rgb-strips" -> rgbStrips;
      case "float32-cog" -> float32Cog;
      case "jpeg-cog" -> jpegCog;
      case "jpeg-cog-masked" -> maskedJpegCog;
      default -> zstdCog;
    };
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "rgb-strips, nearest",
    "rgb-strips, bilinear",
    "rgb-strips, cubic",
    "float32-cog, nearest",
    "float32-cog, bilinear",
    "float32-cog, cubic",
    "jpeg-cog, nearest",
    "jpeg-cog, bilinear",
    "jpeg-cog, cubic",
    "jpeg-cog-masked, nearest",
    "jpeg-cog-masked, bilinear",
    "zstd-cog, nearest",
    "zstd-cog, bilinear",
    "zstd-cog, cubic",
  })
  void everyTileAgreesWithGdalwarp(String name, String method) throws Exception {
    Path file = source(name);
    Resampling resampling = Resampling.named(method).orElseThrow();
    CoordinateReferenceSystem mercator = CrsResolver.resolve("EPSG:3857");
    long both = 0, same = 0, within = 0, maskOff = 0, maskOffInside = 0, zerosKept = 0;
    double range;
    int bandCount;
    SampleType type;
    Optional<Double> declared;
    try (TileResampler r = TileResampler.open(file)) {
      bandCount = r.bandCount();
      type = r.sampleType();
      declared = r.declaredNodata();
    }
    boolean float32 = type == SampleType.FLOAT32;
    // As the planner sets them when the job gives none (RasterParams).
    Double nodataOut = declared.isPresent() ? declared.get() : float32 ? Double.NaN : null;
    range = float32 ? 2 * 600 + 403 / 8.0 : type == SampleType.UINT8 ? 255 : 1;
    double tolerance = float32 ? 1e-3 * range : 1;
    int[] bands = new int[bandCount];
    for (int b = 0; b < bandCount; b++) {
      bands[b] = b;
    }
    TileSettings settings =
        new TileSettings(SIZE, bands, resampling, declared.orElse(null), type, nodataOut);
    int tiles = 0;
    try (TileResampler resampler = TileResampler.open(file)) {
      for (int z = 8; z <= 11; z++) {
        for (long[] t : tiles(z)) {
          tiles++;
          Bounds b = TestRasters.webMercator(z, t[0], t[1]);
          RasterTile ours = resampler.render(List.of(b), mercator, settings).get(0);
          float[][] gdal = gdalwarp(file, b, method, bandCount, type, declared.isPresent());
          float[] alpha = gdal[bandCount];
          for (int p = 0; p < SIZE * SIZE; p++) {
            boolean theirs =
                declared.isPresent() ? gdal[0][p] != declared.get().floatValue() : alpha[p] > 0;
            boolean mine = ours.covered().get(p);
            if (theirs && mine) {
              for (int band = 0; band < bandCount; band++) {
                double g = gdal[band][p];
                double m = ours.samples()[p * bandCount + band];
                both++;
                same += g == m ? 1 : 0;
                within += Math.abs(g - m) <= tolerance ? 1 : 0;
                zerosKept += g == 0 && m == 0 ? 1 : 0;
              }
            } else if (theirs != mine) {
              maskOff++;
              if (!onEdge(gdal, alpha, p, declared)) {
                maskOffInside++;
              }
            }
          }
        }
      }
    }
    String summary =
        String.format(
            Locale.ROOT,
            "%s %s: %d tiles, %d samples with data in both, %.4f%% identical, %.4f%% within %s;"
                + " coverage differs on %d pixels, %d off the outermost ring; %d zeros kept",
            name,
            method,
            tiles,
            both,
            100.0 * same / both,
            100.0 * within / both,
            tolerance,
            maskOff,
            maskOffInside,
            zerosKept);
    System.out.println(summary);
    assertTrue(tiles >= 20, summary);
    assertTrue(both > 200_000, summary);
    if (resampling == Resampling.NEAREST) {
      assertTrue(same >= 0.999 * both, summary);
    } else {
      assertTrue(within >= 0.99 * both, summary);
    }
    assertEquals(0, maskOffInside, summary);
    if (name.startsWith("rgb")) {
      assertTrue(zerosKept > 1000, "black pixels stay black, with data: " + summary);
    }
  }

  /**
   * The Web Mercator tiles at {@code z} that meet the sources (about 7.68–8.49°E, 46.95–47.31°N).
   */
  private static List<long[]> tiles(int z) {
    List<long[]> out = new ArrayList<>();
    long n = 1L << z;
    long x0 = (long) Math.floor((7.68 + 180) / 360 * n);
    long x1 = (long) Math.floor((8.49 + 180) / 360 * n);
    for (long y = row(47.32, n); y <= row(46.94, n); y++) {
      for (long x = x0; x <= x1; x++) {
        out.add(new long[] {x, y});
      }
    }
    return out;
  }

  private static long row(double lat, long n) {
    double r = Math.toRadians(lat);
    return (long) Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * n);
  }

  /**
   * {@code gdalwarp -et 0} of the tile: each band's pixels, then (for a source without no data)
   * GDAL's alpha, as floats.
   */
  private static float[][] gdalwarp(
      Path file, Bounds b, String method, int bands, SampleType type, boolean nodata)
      throws IOException {
    Path raw = dir.resolve("warp.bin");
    List<String> args =
        new ArrayList<>(
            List.of(
                "-q",
                "-overwrite",
                "-of",
                "ENVI",
                "-et",
                "0",
                "-te",
                Double.toString(b.minX()),
                Double.toString(b.minY()),
                Double.toString(b.maxX()),
                Double.toString(b.maxY()),
                "-ts",
                "256",
                "256",
                "-r",
                method,
                "-t_srs",
                "EPSG:3857"));
    if (!nodata) {
      args.add("-dstalpha");
    }
    args.addAll(List.of(file.toString(), raw.toString()));
    // Written in the source's own type (band after band), as the warper rounds it.
    Gdal.run("gdalwarp", args.toArray(String[]::new));
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
    int n = SIZE * SIZE;
    int width = type.bits() / 8;
    int planes = bytes.capacity() / width / n;
    float[][] outBands = new float[bands + 1][n];
    for (int band = 0; band < planes && band <= bands; band++) {
      for (int i = 0; i < n; i++) {
        int at = (band * n + i) * width;
        outBands[band][i] =
            switch (type) {
              case UINT8 -> bytes.get(at) & 0xff;
              case INT16 -> bytes.getShort(at);
              case UINT16 -> bytes.getShort(at) & 0xffff;
              case FLOAT32 -> bytes.getFloat(at);
            };
      }
    }
    return outBands;
  }

  /** Whether pixel {@code p} touches the edge of GDAL's coverage (its outermost ring). */
  private static boolean onEdge(float[][] gdal, float[] alpha, int p, Optional<Double> nodata) {
    int x = p % SIZE;
    int y = p / SIZE;
    boolean self = has(gdal, alpha, p, nodata);
    for (int dy = -1; dy <= 1; dy++) {
      for (int dx = -1; dx <= 1; dx++) {
        int nx = x + dx;
        int ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < SIZE && ny < SIZE) {
          if (has(gdal, alpha, ny * SIZE + nx, nodata) != self) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean has(float[][] gdal, float[] alpha, int p, Optional<Double> nodata) {
    return nodata.isPresent() ? gdal[0][p] != nodata.get().floatValue() : alpha[p] > 0;
  }
}
