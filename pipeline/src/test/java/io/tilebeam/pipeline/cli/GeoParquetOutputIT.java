package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.source.NodeScripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A layer published as GeoParquet tiles: every tile file of the run opens in an independent reader
 * (the npm package hyparquet) with as many rows as its FlatGeobuf twin has features, geometries
 * that it decodes (as GeoJSON) matching their bbox covering values, and the layer's CRS (EPSG:3857
 * as PROJJSON); the same work on a fresh ledger writes the same bytes.
 */
class GeoParquetOutputIT {

  @TempDir Path dir;

  private static String job(Path out, String format) {
    return "namespace: geoparquet-test\nlayers:\n"
        + "  - name: islands\n"
        + "    source: {uri: "
        + TestJobs.SAMPLE_SOURCE
        + ", format: geojson}\n"
        + "    extents: [{bbox: [-180, -85, 180, 85]}]\n"
        + "    tileMatrixSet: WebMercatorQuad\n"
        + "    zooms: [0, 3]\n"
        + "    targetCrs: EPSG:3857\n"
        + "    output: {uri: "
        + out
        + ", format: "
        + format
        + "}\n";
  }

  private void run(String name, String format) throws Exception {
    Path job = dir.resolve(name + ".yaml");
    Files.writeString(job, job(dir.resolve(name), format));
    JsonNode report =
        TestJobs.runReporting(
            dir.resolve(name + ".json"),
            "--job",
            job.toString(),
            "--home",
            dir.resolve("home-" + name).toString());
    assertEquals(0, report.get("failed").asInt(), report.toString());
  }

  /** The smallest x of GeoJSON coordinates. */
  private static void xs(JsonNode coordinates, double[] minX) {
    if (coordinates.get(0).isNumber()) {
      minX[0] = Math.min(minX[0], coordinates.get(0).asDouble());
    } else {
      coordinates.forEach(c -> xs(c, minX));
    }
  }

  @Test
  void everyTileOpensInHyparquetWithItsRowsGeometryAndCrs() throws Exception {
    run("parquet", "geoparquet");
    run("fgb", "flatgeobuf");
    List<Path> tiles;
    try (Stream<Path> s = Files.walk(dir.resolve("parquet/islands"))) {
      tiles = s.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
    assertEquals(1 + 4 + 16 + 64, tiles.size());
    List<String> args = new ArrayList<>();
    tiles.forEach(t -> args.add(t.toString()));
    JsonNode all =
        new ObjectMapper()
            .readTree(
                NodeScripts.run(
                    NodeScripts.class, "read-geoparquet.mjs", dir, args.toArray(String[]::new)));
    assertEquals(tiles.size(), all.size());
    long rows = 0;
    for (int i = 0; i < tiles.size(); i++) {
      JsonNode t = all.get(i);
      Path tile = tiles.get(i);
      String zxy =
          dir.resolve("parquet/islands").relativize(tile).toString().replace(".parquet", "");
      long features =
          TileFormat.named("flatgeobuf")
              .countFeatures(Files.readAllBytes(dir.resolve("fgb/islands/" + zxy + ".fgb")));
      assertEquals(features, t.get("rows").asLong(), zxy);
      JsonNode geo = new ObjectMapper().readTree(t.at("/metadata/geo").asText());
      assertEquals(3857, geo.at("/columns/geometry/crs/id/code").asInt(), zxy);
      // hyparquet decodes the WKB column the geo metadata names into GeoJSON geometries.
      for (JsonNode row : t.get("data")) {
        JsonNode g = row.get("geometry");
        assertTrue(
            java.util.Set.of(
                    "Point",
                    "LineString",
                    "Polygon",
                    "MultiPoint",
                    "MultiLineString",
                    "MultiPolygon")
                .contains(g.get("type").asText()),
            zxy + " " + row.get("id") + ": " + g);
        double[] minX = {Double.POSITIVE_INFINITY};
        xs(g.get("coordinates"), minX);
        assertEquals(minX[0], row.at("/bbox/xmin").asDouble(), zxy + " " + row.get("id"));
      }
      rows += features;
    }
    assertTrue(rows > 20, "rows in all: " + rows);

    // The same work again, on a fresh ledger: the same bytes.
    var first = TestJobs.publishedTiles(dir.resolve("parquet"));
    run("parquet-again", "geoparquet");
    assertEquals(first, TestJobs.publishedTiles(dir.resolve("parquet-again")));
  }
}
