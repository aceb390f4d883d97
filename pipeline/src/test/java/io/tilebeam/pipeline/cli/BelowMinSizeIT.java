package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a vector tile layer leaves out is said: an islet smaller than a grid unit at the low zooms
 * of an MVT job is missing from those zooms' tiles, and the report counts it zoom by zoom; a larger
 * {@code minSizePixels} leaves it out of more zooms.
 */
class BelowMinSizeIT {

  @TempDir Path dir;

  /** An islet of about 1.1 km (in Web Mercator at 10°N), a 440 km island and a thin sliver. */
  private Path source() throws Exception {
    Path source = dir.resolve("islands.geojson");
    Files.writeString(
        source,
        "{\"type\":\"FeatureCollection\",\"features\":["
            + "{\"type\":\"Feature\",\"id\":\"islet\",\"properties\":{},\"geometry\":"
            + "{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[10,10],[10.01,10],[10.01,10.01],[10,10.01],[10,10]]]}},"
            + "{\"type\":\"Feature\",\"id\":\"island\",\"properties\":{},\"geometry\":"
            + "{\"type\":\"Polygon\",\"coordinates\":[[[12,12],[16,12],[16,16],[12,16],[12,12]]]}},"
            // 69 km by 2.3 km, 159 km2: more than a grid unit squared at zoom 0 (96 km2), but
            // thinner than the simplification's tolerance there (9.8 km), which leaves a triangle
            // of half that area, dropped by the minimum size.
            + "{\"type\":\"Feature\",\"id\":\"sliver\",\"properties\":{},\"geometry\":"
            + "{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[10.5,15],[11.1,15],[11.1,15.02],[10.5,15.02],[10.5,15]]]}}"
            + "]}");
    return source;
  }

  private JsonNode run(String name, String params) throws Exception {
    Path job = dir.resolve(name + ".yaml");
    Files.writeString(
        job,
        "namespace: "
            + name
            + "\nlayers:\n"
            + "  - name: islands\n"
            + "    source: {uri: "
            + source()
            + ", format: geojson}\n"
            + "    extents: [{bbox: [9, 9, 17, 17]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n"
            + "    zooms: [0, 6]\n"
            + "    targetCrs: EPSG:3857\n"
            + "    output: {uri: "
            + dir.resolve(name)
            + ", format: mvt}\n"
            + params);
    return TestJobs.runReporting(
        dir.resolve(name + ".json"),
        "--job",
        job.toString(),
        "--home",
        dir.resolve("home-" + name).toString(),
        "--runner=DirectRunner");
  }

  @Test
  void anIsletBelowTheGridIsLeftOutAndCountedByZoom() throws Exception {
    // One grid unit (1/16 pixel) is 9.8 km at zoom 0 and 1.2 km at zoom 3, 611 m at zoom 4.
    JsonNode byDefault = run("defaults", "");
    assertEquals(5, byDefault.get("featuresBelowMinSize").asLong(), byDefault.toString());
    JsonNode byZoom = byDefault.get("featuresBelowMinSizeByZoom");
    // The islet at zooms 0-3, the sliver at zoom 0 (by its area, not its size across).
    for (int z = 0; z <= 3; z++) {
      assertEquals(z == 0 ? 2 : 1, byZoom.path(String.valueOf(z)).asLong(), byDefault.toString());
    }
    assertFalse(byZoom.has("4"), byDefault.toString());
    // Dropped when cut, the sliver leaves nothing for rounding to collapse.
    assertEquals(0, byDefault.get("piecesCollapsed").asLong(), byDefault.toString());
    assertEquals(0, byDefault.get("failed").asLong(), byDefault.toString());

    // Half a pixel: the islet is under it up to zoom 6 (a pixel is 2.4 km there), the sliver,
    // though 69 km long, at zooms 0-2 by its area (a square of half a pixel is 6,084, 1,521 and
    // 384 km2 there, 96 km2 at zoom 3).
    JsonNode larger = run("larger", "    params: {minSizePixels: 0.5}\n");
    assertEquals(10, larger.get("featuresBelowMinSize").asLong(), larger.toString());
    assertEquals(
        "{\"0\":2,\"1\":2,\"2\":2,\"3\":1,\"4\":1,\"5\":1,\"6\":1}",
        larger.get("featuresBelowMinSizeByZoom").toString());
    // The islet's own tile at zoom 6 holds it by default, and not with half a pixel.
    Path kept = dir.resolve("defaults/islands/6/33/30.mvt");
    Path dropped = dir.resolve("larger/islands/6/33/30.mvt");
    assertTrue(Files.readString(kept, StandardCharsets.ISO_8859_1).contains("islet"));
    assertFalse(
        Files.exists(dropped)
            && Files.readString(dropped, StandardCharsets.ISO_8859_1).contains("islet"));
  }
}
