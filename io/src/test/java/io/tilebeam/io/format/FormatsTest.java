package io.tilebeam.io.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

class FormatsTest {

  @TempDir Path dir;

  private static RenderedTile tile() throws Exception {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "parcels",
            "WebMercatorQuad",
            TileId.of(1, 0, 0),
            "sha256:aa",
            "OGC:CRS84",
            "EPSG:3857",
            "geojson",
            "{}");
    WKBWriter wkb = new WKBWriter(2);
    WKTReader wkt = new WKTReader();
    List<RenderedFeature> fs = new ArrayList<>();
    fs.add(
        new RenderedFeature(
            "a",
            wkb.write(
                wkt.read(
                    "POLYGON((-9000000 9000000, -8000000 9000000, -8000000 10000000,"
                        + " -9000000 10000000, -9000000 9000000))")),
            "{\"name\":\"A\",\"n\":1,\"ok\":true}"));
    fs.add(
        new RenderedFeature(
            "b",
            wkb.write(
                wkt.read(
                    "POLYGON((-5000000 5000000, -4000000 5000000, -4000000 5500000,"
                        + " -5000000 5000000))")),
            "{\"name\":\"B\",\"n\":2.5,\"tags\":[\"x\"]}"));
    return RenderedTile.of(WorkKey.of(w), w, fs);
  }

  @ParameterizedTest
  @ValueSource(strings = {"geojson", "flatgeobuf", "mvt"})
  void encodingIsDeterministicAndParsesBack(String name) throws Exception {
    VectorFormat format = (VectorFormat) TileFormat.named(name);
    byte[] a = format.encode(tile(), CrsRef.of("EPSG:3857")).bytes();
    byte[] b = format.encode(tile(), CrsRef.of("EPSG:3857")).bytes();
    assertArrayEquals(a, b);
    assertEquals(2, format.countFeatures(a));
  }

  /** GDAL, an independent reader, opens the output with the right CRS and feature count. */
  @ParameterizedTest
  @ValueSource(strings = {"geojson", "flatgeobuf", "mvt"})
  void gdalReadsTheOutput(String name) throws Exception {
    // scripts/setup.sh installs GDAL; outside CI a machine without it skips this check.
    Assumptions.assumeTrue(
        System.getenv("CI") != null || ogrinfoInstalled(), "ogrinfo is installed");
    VectorFormat format = (VectorFormat) TileFormat.named(name);
    // z/x/y in the path: how GDAL's MVT driver knows where a single tile lies.
    Path file = dir.resolve("1/0/0." + format.extension());
    Files.createDirectories(file.getParent());
    Files.write(file, format.encode(tile(), CrsRef.of("EPSG:3857")).bytes());
    Process p =
        new ProcessBuilder("ogrinfo", "-so", "-al", file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    assertTrue(out.contains("Feature Count: 2"), out);
    assertTrue(out.contains("ID[\"EPSG\",3857]"), out);
  }

  private static boolean ogrinfoInstalled() {
    try {
      return new ProcessBuilder("ogrinfo", "--version").start().waitFor() == 0;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
