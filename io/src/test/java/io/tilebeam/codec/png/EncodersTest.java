package io.tilebeam.codec.png;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.io.source.Gdal;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two raster tile encodings, read back by independent readers (ImageIO, GDAL). */
class EncodersTest {

  @TempDir Path dir;

  /** {@code width × height} pixels of {@code bands} bands, valued by position; a no-data corner. */
  private static RasterTile tile(int width, int height, int bands, SampleType type, double nodata) {
    double[] s = new double[width * height * bands];
    for (int y = 0; y < height; y++) {
      for (int x = 0; x < width; x++) {
        for (int b = 0; b < bands; b++) {
          boolean corner = x < 10 && y < 10;
          s[(y * width + x) * bands + b] = corner ? nodata : type.store((x + 2 * y + 50 * b) % 250);
        }
      }
    }
    return new RasterTile(width, height, bands, type, nodata, s);
  }

  @Test
  void aPngOfOneByteBandIsGreyWithAlphaForNoData() throws Exception {
    RasterTile t = tile(256, 256, 1, SampleType.UINT8, 0);
    byte[] png = PngEncoder.encode(t);
    assertArrayEquals(png, PngEncoder.encode(t), "the same tile, the same bytes");
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertEquals(256, image.getWidth());
    assertEquals(256, image.getHeight());
    assertEquals(2, image.getRaster().getNumBands());
    assertEquals(0, image.getRaster().getSample(3, 3, 1), "no data is transparent");
    assertEquals(255, image.getRaster().getSample(40, 30, 1));
    assertEquals((40 + 60) % 250, image.getRaster().getSample(40, 30, 0));
    Path file = dir.resolve("grey.png");
    Files.write(file, png);
    JsonNode info = new ObjectMapper().readTree(Gdal.run("gdalinfo", "-json", file.toString()));
    assertEquals(2, info.get("bands").size());
    assertEquals(256, info.at("/size/0").asInt());
  }

  @Test
  void aPngOfThreeBandsIsRgbaAndSixteenBitGreyKeepsItsBits() throws Exception {
    BufferedImage rgb =
        ImageIO.read(
            new ByteArrayInputStream(PngEncoder.encode(tile(64, 32, 3, SampleType.UINT8, 0))));
    assertEquals(4, rgb.getRaster().getNumBands());
    assertEquals((5 + 2 * 12 + 100) % 250, rgb.getRaster().getSample(5, 12, 2));
    assertEquals(255, rgb.getRaster().getSample(5, 12, 3));
    assertEquals(0, rgb.getRaster().getSample(5, 5, 3));

    double[] s = {0, 1000, 40000, 65535};
    BufferedImage grey =
        ImageIO.read(
            new ByteArrayInputStream(
                PngEncoder.encode(new RasterTile(2, 2, 1, SampleType.UINT16, 0.0, s))));
    assertEquals(16, grey.getColorModel().getComponentSize(0));
    assertEquals(40000, grey.getRaster().getSample(0, 1, 0));
    assertEquals(0, grey.getRaster().getSample(0, 0, 1));
    assertEquals(65535, grey.getRaster().getSample(1, 1, 1));
  }

  @Test
  void whatAPngCannotHoldIsRefused() {
    assertFalse(PngEncoder.fits(1, SampleType.INT16));
    assertFalse(PngEncoder.fits(2, SampleType.UINT8));
    assertThrows(
        IllegalArgumentException.class,
        () -> PngEncoder.encode(tile(4, 4, 1, SampleType.FLOAT32, Double.NaN)));
  }

  @Test
  void aGeoTiffLargerThanOneTiffTileOfFloatBandsReadsBack() throws Exception {
    // 300 × 200 pixels: two TIFF tiles across, the second and the bottom padded.
    RasterTile t = tile(300, 200, 2, SampleType.FLOAT32, -1.5);
    byte[] tiff =
        GeoTiffEncoder.encode(
            t, new GeoTiffEncoder.Georeference(4326, true, 5.0, 50.0, 0.01, 0.005));
    assertArrayEquals(
        tiff,
        GeoTiffEncoder.encode(
            t, new GeoTiffEncoder.Georeference(4326, true, 5.0, 50.0, 0.01, 0.005)));
    Path file = dir.resolve("float.tif");
    Files.write(file, tiff);
    JsonNode info =
        new ObjectMapper().readTree(Gdal.run("gdalinfo", "-json", "-stats", file.toString()));
    assertEquals(300, info.at("/size/0").asInt());
    assertEquals(200, info.at("/size/1").asInt());
    assertEquals(2, info.get("bands").size());
    assertEquals("Float32", info.at("/bands/1/type").asText());
    assertEquals(-1.5, info.at("/bands/0/noDataValue").asDouble());
    assertEquals(5.0, info.at("/geoTransform/0").asDouble());
    assertEquals(0.01, info.at("/geoTransform/1").asDouble());
    assertEquals(50.0, info.at("/geoTransform/3").asDouble());
    assertEquals(-0.005, info.at("/geoTransform/5").asDouble());
    assertTrue(info.at("/coordinateSystem/wkt").asText().contains("ID[\"EPSG\",4326]"));
    // The last pixel, in the padded tile: (299 + 398 + 50) % 250 in band 1.
    String value =
        Gdal.run("gdallocationinfo", "-valonly", "-b", "2", file.toString(), "299", "199").trim();
    assertEquals((299 + 398 + 50) % 250, Double.parseDouble(value));
    assertEquals(249.0, info.at("/bands/0/maximum").asDouble());
  }

  @Test
  void theReadBackCheckRefusesATruncatedOrCorruptTile() throws Exception {
    RasterTile t = tile(256, 256, 1, SampleType.UINT8, 0);
    byte[] tiff =
        GeoTiffEncoder.encode(t, new GeoTiffEncoder.Georeference(3857, false, 0, 0, 1, 1));
    GeoTiffEncoder.check(tiff);
    assertThrows(
        java.io.IOException.class,
        () -> GeoTiffEncoder.check(java.util.Arrays.copyOf(tiff, tiff.length - 10)));
    byte[] png = PngEncoder.encode(t);
    PngEncoder.check(png);
    byte[] corrupt = png.clone();
    corrupt[60] ^= 1;
    assertThrows(java.io.IOException.class, () -> PngEncoder.check(corrupt));
    assertThrows(
        java.io.IOException.class,
        () -> PngEncoder.check(java.util.Arrays.copyOf(png, png.length - 12)));
  }

  /**
   * Terrarium and Terrain-RGB PNGs decode, by each one's published formula, to the elevations
   * within its step (1/256 m, 0.1 m), no data transparent, out-of-range elevations clamped.
   */
  @Test
  void elevationEncodingsDecodeToTheElevationsWithinTheirStep() throws Exception {
    double[] heights = {-9999, -432.25, 0, 0.3, 8848.86, 1234.5678, -32768.5, 70000};
    double[] samples = new double[heights.length];
    System.arraycopy(heights, 0, samples, 0, heights.length);
    RasterTile tile = new RasterTile(heights.length, 1, 1, SampleType.FLOAT32, -9999.0, samples);
    for (ElevationEncoding e : ElevationEncoding.values()) {
      BufferedImage png = ImageIO.read(new ByteArrayInputStream(PngEncoder.encode(e.encode(tile))));
      assertEquals(heights.length, png.getWidth());
      for (int x = 0; x < heights.length; x++) {
        int argb = png.getRGB(x, 0);
        int alpha = argb >>> 24;
        int r = (argb >> 16) & 0xFF;
        int g = (argb >> 8) & 0xFF;
        int b = argb & 0xFF;
        if (heights[x] == -9999) {
          assertEquals(0, alpha, "no data is transparent");
          continue;
        }
        assertEquals(255, alpha);
        double decoded =
            e == ElevationEncoding.TERRARIUM
                ? r * 256 + g + b / 256.0 - 32768
                : -10000 + (r * 65536 + g * 256 + b) * 0.1;
        double expected =
            e == ElevationEncoding.TERRARIUM
                ? Math.max(-32768, Math.min(32767.996, heights[x]))
                : Math.max(-10000, heights[x]);
        double step = e == ElevationEncoding.TERRARIUM ? 1 / 256.0 : 0.05 + 1e-9;
        assertEquals(expected, decoded, step, e + " of " + heights[x]);
      }
    }
    assertEquals(null, ElevationEncoding.refuses(1));
    assertTrue(ElevationEncoding.refuses(3).contains("1 band"));
  }
}
