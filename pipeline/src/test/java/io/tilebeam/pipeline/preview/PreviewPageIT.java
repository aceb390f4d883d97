package io.tilebeam.pipeline.preview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.source.NodeScripts;
import io.tilebeam.pipeline.cli.TestJobs;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample job's map preview in a real browser: the run writes {@code preview.html}, {@code
 * tilebeam serve} (its own process) serves the output, Debian's headless Chromium loads the page
 * (MapLibre GL JS drawing the MVT layer with WebGL in SwiftShader) and takes a screenshot, whose
 * pixels show the islands' fill colour where an island is and the background over open sea.
 */
@Tag("slow")
class PreviewPageIT {

  /** The first vector layer's colour and the background, as {@code preview.html} fixes them. */
  private static final int FILL = 0xc8553d;

  private static final int SEA = 0xdde8f0;

  private static final int WIDTH = 800;
  private static final int HEIGHT = 600;

  @TempDir Path dir;

  @Test
  void theSamplesPreviewDrawsTheIslandsWhereTheyAre() throws Exception {
    Path job = TestJobs.sample(dir);
    Path out = dir.resolve("out");
    JsonNode layer = runAndReadConfig(job, out);
    assertEquals("vector", layer.path("name").asText());
    assertTrue(layer.path("archive").isMissingNode(), layer.toString());
    JsonNode shot = screenshotShowsMadagascar(out);
    assertTrue(shot.path("tiles").asInt() > 0, shot.toString());
  }

  /** The same islands packed into a PMTiles archive, which the page reads by range requests. */
  @Test
  void anArchivesPreviewReadsItByRangeRequests() throws Exception {
    Path out = dir.resolve("packed");
    Path job =
        Files.writeString(
            dir.resolve("job.yaml"),
            "namespace: preview-archive\nlayers:\n  - name: islands\n    source: {uri: "
                + TestJobs.SAMPLE_SOURCE
                + ", format: geojson}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
                + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 3]\n"
                + "    targetCrs: EPSG:3857\n    output: {uri: "
                + out
                + ", format: pmtiles}\n");
    JsonNode layer = runAndReadConfig(job, out);
    assertEquals("islands.pmtiles", layer.path("archive").asText());
    JsonNode shot = screenshotShowsMadagascar(out);
    assertTrue(shot.path("ranges").asInt() >= 2, "header and tiles by range: " + shot);
  }

  private JsonNode runAndReadConfig(Path job, Path out) throws Exception {
    TestJobs.Result run = TestJobs.execute("run", "--job", job.toString(), "--home", dir + "/home");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("preview: " + out.resolve("preview.html")), run.out());
    JsonNode config = new ObjectMapper().readTree(out.resolve("preview.json").toFile());
    assertEquals(1, config.path("layers").size(), config.toString());
    return config.path("layers").get(0);
  }

  /** Serves {@code out}, takes the screenshot, checks its pixels; returns what the script said. */
  private JsonNode screenshotShowsMadagascar(Path out) throws Exception {
    Path log = dir.resolve("serve.log");
    Process serve =
        TestJobs.start(null, log, Map.of(), "serve", "--dir", out.toString(), "--port", "0");
    try {
      String url = awaitUrl(serve, log);
      // Madagascar in the middle, at zoom 3 (the layer's zoom-2 tiles, drawn larger).
      double lon = 46.9;
      double lat = -19.5;
      int zoom = 3;
      Path shot = dir.resolve("preview.png");
      String printed =
          NodeScripts.run(
              PreviewPageIT.class,
              "screenshot.cjs",
              dir,
              url + "#" + zoom + "/" + lat + "/" + lon,
              shot.toString(),
              Integer.toString(WIDTH),
              Integer.toString(HEIGHT));
      assertTrue(printed.contains("\"ready\":true"), printed);
      BufferedImage image = ImageIO.read(shot.toFile());
      assertEquals(WIDTH, image.getWidth());
      assertColour(FILL, image, pixel(46.9, -19.5, lon, lat, zoom), "inside Madagascar");
      assertColour(FILL, image, pixel(44.8, -23.0, lon, lat, zoom), "south-west Madagascar");
      assertColour(SEA, image, pixel(60.0, -30.0, lon, lat, zoom), "the Indian Ocean");
      assertColour(SEA, image, pixel(38.0, -10.0, lon, lat, zoom), "the Mozambique Channel");
      System.out.println("screenshot: " + printed.strip());
      return new ObjectMapper().readTree(printed.strip().lines().reduce((a, b) -> b).orElseThrow());
    } finally {
      serve.destroy();
      serve.waitFor(20, TimeUnit.SECONDS);
    }
  }

  /** Where {@code lon, lat} is drawn on a map centred on {@code lon0, lat0} at {@code zoom}. */
  private static int[] pixel(double lon, double lat, double lon0, double lat0, int zoom) {
    double world = 512 * Math.pow(2, zoom); // MapLibre's tile size
    double x = (lon - lon0) / 360 * world;
    double y = (mercatorY(lat0) - mercatorY(lat)) * world;
    return new int[] {(int) Math.round(WIDTH / 2.0 + x), (int) Math.round(HEIGHT / 2.0 + y)};
  }

  private static double mercatorY(double lat) {
    double phi = Math.toRadians(lat);
    return Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI);
  }

  private static void assertColour(int expected, BufferedImage image, int[] at, String where) {
    int rgb = image.getRGB(at[0], at[1]) & 0xffffff;
    for (int shift : new int[] {16, 8, 0}) {
      int d = Math.abs(((rgb >> shift) & 0xff) - ((expected >> shift) & 0xff));
      assertTrue(
          d <= 3,
          where
              + " at "
              + at[0]
              + ","
              + at[1]
              + ": "
              + String.format("#%06x", rgb)
              + ", expected "
              + String.format("#%06x", expected));
    }
  }

  private static String awaitUrl(Process serve, Path log) throws Exception {
    Pattern serving = Pattern.compile("serving .* at (http://\\S+)");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        Matcher m = serving.matcher(Files.readString(log));
        if (m.find()) {
          return m.group(1);
        }
      }
      assertTrue(serve.isAlive(), "serve ended: " + Files.readString(log));
      Thread.sleep(50);
    }
    throw new AssertionError("serve did not say where it serves: " + Files.readString(log));
  }
}
