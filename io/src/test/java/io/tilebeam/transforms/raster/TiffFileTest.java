package io.tilebeam.transforms.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.codec.tiff.TiffDirectory;
import io.tilebeam.codec.tiff.TiffFile;
import io.tilebeam.io.source.Gdal;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The TIFF reader against GDAL: sources written by {@code gdal_translate} in the layouts users have
 * (COG and plain GeoTIFF; tiles and strips; deflate, LZW, PackBits, JPEG, ZSTD, none; horizontal
 * and floating-point predictors; 8-, 16- and 32-bit samples; one and three bands, stored together
 * or apart; classic and BigTIFF, both byte orders) are read whole, every sample compared with what
 * GDAL reads of the same file ({@code gdal_translate -of ENVI -ot Float32}).
 *
 * <p>The first case is the one SIS 1.6 reads wrongly (values off from the second row): a COG
 * narrower than its 512-pixel block with the horizontal predictor, as the shipped sample is.
 */
class TiffFileTest {

  @TempDir static Path dir;

  private static final int WIDTH = 600;
  private static final int HEIGHT = 400;

  /** Three seeded grids of WIDTH × HEIGHT cells, signed, with fractions. */
  private static final List<Path> grids = new ArrayList<>();

  @BeforeAll
  static void grids() throws IOException {
    Random random = new Random(11);
    for (int b = 0; b < 3; b++) {
      Path asc = dir.resolve("band" + b + ".asc");
      try (BufferedWriter w = Files.newBufferedWriter(asc)) {
        w.write("ncols " + WIDTH + "\nnrows " + HEIGHT + "\nxllcorner 400000\n");
        w.write("yllcorner 5200000\ncellsize 100\n");
        for (int j = 0; j < HEIGHT; j++) {
          StringBuilder row = new StringBuilder();
          for (int i = 0; i < WIDTH; i++) {
            double v =
                120 * Math.sin((i + 17 * b) / 23.0) * Math.cos(j / 31.0)
                    + 100
                    + random.nextInt(40)
                    + random.nextInt(4) / 4.0;
            row.append(i == 0 ? "" : " ").append(v);
          }
          w.write(row.append('\n').toString());
        }
      }
      grids.add(asc);
    }
    Gdal.run(
        "gdalbuildvrt",
        "-q",
        "-separate",
        dir.resolve("rgb.vrt").toString(),
        grids.get(0).toString(),
        grids.get(1).toString(),
        grids.get(2).toString());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "narrow COG, Int16, deflate, predictor 2|1|Int16|-of COG -srcwin 0 0 240 160"
            + " -co COMPRESS=DEFLATE -co PREDICTOR=2",
        "COG, Byte, LZW, predictor 2|1|Byte|-of COG -co COMPRESS=LZW -co PREDICTOR=2",
        "COG, UInt16, deflate, predictor 2|1|UInt16|-of COG -co COMPRESS=DEFLATE -co PREDICTOR=2",
        "COG, Float32, deflate, predictor 3|1|Float32|-of COG -co COMPRESS=DEFLATE -co PREDICTOR=3",
        "strips of 7 rows, Int16, PackBits|1|Int16|-of GTiff -co BLOCKYSIZE=7 -co COMPRESS=PACKBITS",
        "BigTIFF, big-endian, tiles of 128, Float32, none|1|Float32|-of GTiff -co TILED=YES"
            + " -co BLOCKXSIZE=128 -co BLOCKYSIZE=128 -co BIGTIFF=YES -co ENDIANNESS=BIG",
        "three bands together, Byte, deflate, predictor 2|3|Byte|-of COG -co COMPRESS=DEFLATE"
            + " -co PREDICTOR=2",
        "three bands apart, UInt16, tiles, LZW, predictor 2|3|UInt16|-of GTiff -co TILED=YES"
            + " -co INTERLEAVE=BAND -co COMPRESS=LZW -co PREDICTOR=2",
        "COG, three bands, Byte, JPEG in YCbCr|3|Byte|-of COG -co COMPRESS=JPEG",
        "three bands, Byte, JPEG in RGB, tiles|3|Byte|-of GTiff -co TILED=YES -co COMPRESS=JPEG"
            + " -co PHOTOMETRIC=RGB",
        "strips of 16 rows, Byte, JPEG|1|Byte|-of GTiff -co BLOCKYSIZE=16 -co COMPRESS=JPEG",
        "COG, Int16, ZSTD, predictor 2|1|Int16|-of COG -co COMPRESS=ZSTD -co PREDICTOR=2",
        "strips, Float32, ZSTD, predictor 3|1|Float32|-of GTiff -co COMPRESS=ZSTD -co PREDICTOR=3",
      })
  void readsEverySampleAsGdalDoes(String name, int bands, String type, String options)
      throws Exception {
    Path tif = dir.resolve(name.replaceAll("[^a-zA-Z0-9]+", "-") + ".tif");
    List<String> args = new ArrayList<>(List.of("-q", "-ot", type, "-a_srs", "EPSG:32632"));
    args.addAll(List.of(options.split(" ")));
    args.add((bands == 3 ? dir.resolve("rgb.vrt") : grids.get(0)).toString());
    args.add(tif.toString());
    Gdal.run("gdal_translate", args.toArray(String[]::new));

    try (TiffFile file = TiffFile.open(tif)) {
      List<TiffDirectory> levels = file.levels();
      for (int level = 0; level < levels.size(); level++) {
        TiffDirectory d = levels.get(level);
        float[][] gdal = gdalSamples(tif, level, bands, d);
        SourceLevel l = new SourceLevel(level, d, 1, null);
        int[] all = new int[bands];
        for (int b = 0; b < bands; b++) {
          all[b] = b;
        }
        RasterWindow ours =
            RasterWindow.read(
                new BlockCache(file, 1 << 20),
                l,
                all,
                0,
                0,
                (int) d.width(),
                (int) d.height(),
                null);
        for (int b = 0; b < bands; b++) {
          for (int y = 0; y < d.height(); y++) {
            for (int x = 0; x < d.width(); x++) {
              float g = gdal[b][(int) (y * d.width() + x)];
              float o = ours.at(b, x, y);
              if (Float.floatToIntBits(g) != Float.floatToIntBits(o)) {
                throw new AssertionError(
                    name
                        + ", level "
                        + level
                        + ", band "
                        + b
                        + ", pixel ("
                        + x
                        + ", "
                        + y
                        + "): "
                        + o
                        + " read, GDAL reads "
                        + g);
              }
            }
          }
        }
      }
      if (options.contains("COG") && !options.contains("srcwin")) {
        assertEquals(2, levels.size(), "the COG's full resolution and its one overview");
      }
    }
  }

  /** Every sample of a level as GDAL reads it, band by band. */
  private static float[][] gdalSamples(Path tif, int level, int bands, TiffDirectory d)
      throws IOException {
    Path raw = dir.resolve("gdal-" + tif.getFileName() + "-" + level + ".bin");
    List<String> args =
        new ArrayList<>(List.of("-q", "-of", "ENVI", "-co", "INTERLEAVE=BSQ", "-ot", "Float32"));
    if (level > 0) {
      args.addAll(List.of("-oo", "OVERVIEW_LEVEL=" + (level - 1)));
    }
    args.addAll(List.of(tif.toString(), raw.toString()));
    Gdal.run("gdal_translate", args.toArray(String[]::new));
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
    int n = (int) (d.width() * d.height());
    assertEquals((long) n * bands * 4, bytes.capacity(), "GDAL's copy of level " + level);
    float[][] out = new float[bands][n];
    for (int b = 0; b < bands; b++) {
      for (int i = 0; i < n; i++) {
        out[b][i] = bytes.getFloat((b * n + i) * 4);
      }
    }
    return out;
  }

  @Test
  void aFileThatIsNotATiffOrIsCutShortIsRefused() throws Exception {
    Path text = Files.writeString(dir.resolve("not.tif"), "hello, not a TIFF at all");
    IOException notTiff = assertThrows(IOException.class, () -> TiffFile.open(text));
    assertTrue(notTiff.getMessage().contains("not a TIFF"), notTiff.getMessage());

    Path whole = dir.resolve("whole.tif");
    Gdal.run("gdal_translate", "-q", "-of", "COG", grids.get(0).toString(), whole.toString());
    byte[] bytes = Files.readAllBytes(whole);
    Path cut =
        Files.write(dir.resolve("cut.tif"), java.util.Arrays.copyOf(bytes, bytes.length / 2));
    try (TiffFile file = TiffFile.open(cut)) {
      TiffDirectory d = file.levels().get(0);
      SourceLevel l = new SourceLevel(0, d, 1, null);
      IOException e =
          assertThrows(
              IOException.class,
              () ->
                  RasterWindow.read(
                      new BlockCache(file, 1 << 20),
                      l,
                      new int[] {0},
                      0,
                      0,
                      (int) d.width(),
                      (int) d.height(),
                      null));
      assertTrue(e.getMessage().contains("ends at"), e.getMessage());
    }
    // Opened for tiles, a file cut short is refused at once, before any block is wanted.
    org.apache.sis.storage.DataStoreException refused =
        assertThrows(
            org.apache.sis.storage.DataStoreException.class, () -> TileResampler.open(cut).close());
    assertTrue(refused.getMessage().contains("cut short"), refused.getMessage());
  }
}
