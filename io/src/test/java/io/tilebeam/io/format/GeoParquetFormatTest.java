package io.tilebeam.io.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.source.NodeScripts;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/**
 * GeoParquet tiles read by independent readers: the npm package hyparquet reads every row (id,
 * properties with their types and nulls, WKB geometry, bbox covering struct) and the geo metadata;
 * PROJ's {@code projinfo} reads the PROJJSON CRS and identifies it; the same tile gives the same
 * bytes, and tilebeam's own reader counts its rows.
 */
class GeoParquetFormatTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static RenderedTile tile(String targetCrs, List<String> wkts) throws Exception {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "parcels",
            "WebMercatorQuad",
            TileId.of(1, 0, 0),
            "sha256:aa",
            "OGC:CRS84",
            targetCrs,
            "geoparquet",
            "{}");
    WKBWriter wkb = new WKBWriter(2);
    WKTReader wkt = new WKTReader();
    String[] props = {
      "{\"name\":\"A\",\"n\":1,\"ok\":true}",
      "{\"name\":\"B\",\"n\":2.5,\"tags\":[\"x\"]}",
      "{\"n\":3}"
    };
    List<RenderedFeature> fs = new ArrayList<>();
    for (int i = 0; i < wkts.size(); i++) {
      fs.add(
          new RenderedFeature(
              String.valueOf((char) ('a' + i)), wkb.write(wkt.read(wkts.get(i))), props[i % 3]));
    }
    return RenderedTile.of(WorkKey.of(w), w, fs);
  }

  private static final List<String> MERCATOR =
      List.of(
          "POLYGON((-9000000 9000000, -8000000 9000000, -8000000 10000000, -9000000 10000000,"
              + " -9000000 9000000))",
          "POINT(-5000000 5000000)",
          "LINESTRING(-4000000 4000000, -3000000 4500000)");

  @Test
  void hyparquetReadsEveryRowAndTheGeoMetadata() throws Exception {
    GeoParquetFormat format = new GeoParquetFormat();
    RenderedTile tile = tile("EPSG:3857", MERCATOR);
    byte[] bytes = format.encode(tile, CrsRef.of("EPSG:3857")).bytes();
    assertArrayEquals(bytes, format.encode(tile, CrsRef.of("EPSG:3857")).bytes(), "same bytes");
    assertEquals(3, format.countFeatures(bytes));
    Path file = dir.resolve("tile.parquet");
    Files.write(file, bytes);

    JsonNode read =
        JSON.readTree(
            NodeScripts.run(NodeScripts.class, "read-geoparquet.mjs", dir, file.toString()));
    assertEquals(3, read.get("rows").asInt(), read.toString());
    assertEquals(
        "[\"id\",\"n\",\"name\",\"ok\",\"tags\",\"geometry\",\"bbox.xmin\",\"bbox.ymin\","
            + "\"bbox.xmax\",\"bbox.ymax\"]",
        read.get("columns").toString());
    JsonNode rows = read.get("data");
    assertEquals("a", rows.at("/0/id").asText());
    assertEquals(1, rows.at("/0/n").asLong());
    assertTrue(rows.at("/0/ok").asBoolean());
    assertTrue(rows.at("/0/tags").isNull(), "a property a feature lacks is null");
    assertEquals(2.5, rows.at("/1/n").asDouble());
    // A JSON column: hyparquet hands its values parsed.
    JsonNode tags = rows.at("/1/tags");
    assertEquals(
        "[\"x\"]", tags.isTextual() ? tags.asText() : tags.toString(), "nested values as JSON");
    assertTrue(rows.at("/2/name").isNull());
    // hyparquet reads the WKB column GeoParquet's metadata names into GeoJSON geometries.
    for (int i = 0; i < 3; i++) {
      JsonNode g = rows.at("/" + i + "/geometry");
      org.locationtech.jts.geom.Geometry expected =
          new org.locationtech.jts.io.WKBReader().read(tile.features().get(i).wkb());
      assertEquals(expected.getGeometryType(), g.get("type").asText(), "row " + i);
      List<Double> coordinates = new ArrayList<>();
      flatten(g.get("coordinates"), coordinates);
      List<Double> written = new ArrayList<>();
      for (org.locationtech.jts.geom.Coordinate c : expected.getCoordinates()) {
        written.add(c.getX());
        written.add(c.getY());
      }
      assertEquals(written, coordinates, "row " + i + "'s coordinates");
    }
    assertEquals(-9000000, rows.at("/0/bbox/xmin").asDouble());
    assertEquals(10000000, rows.at("/0/bbox/ymax").asDouble());

    JsonNode geo = JSON.readTree(read.at("/metadata/geo").asText());
    assertEquals("1.1.0", geo.get("version").asText());
    assertEquals("geometry", geo.get("primary_column").asText());
    JsonNode column = geo.at("/columns/geometry");
    assertEquals("WKB", column.get("encoding").asText());
    assertEquals("[\"LineString\",\"Point\",\"Polygon\"]", column.get("geometry_types").toString());
    assertEquals("[-9000000.0,4000000.0,-3000000.0,1.0E7]", column.get("bbox").toString());
    assertEquals("[\"bbox\",\"xmin\"]", column.at("/covering/bbox/xmin").toString());
    assertEquals(3857, column.at("/crs/id/code").asInt(), column.toString());
    assertEquals("ProjectedCRS", column.at("/crs/type").asText());

    // PROJ reads the PROJJSON and finds it is EPSG:3857.
    Path crs = dir.resolve("crs.json");
    Files.writeString(crs, column.get("crs").toString());
    String identified = run("projinfo", "--identify", "@" + crs);
    assertTrue(identified.contains("EPSG:3857"), identified);
  }

  @Test
  void aGeographicCrsIsPlainPROJJSONAndCrs84IsLeftOut() throws Exception {
    GeoParquetFormat format = new GeoParquetFormat();
    List<String> degrees = List.of("POLYGON((1 1, 2 1, 2 2, 1 1))");
    byte[] crs84 = format.encode(tile("OGC:CRS84", degrees), CrsRef.of("OGC:CRS84")).bytes();
    String text = new String(crs84, StandardCharsets.ISO_8859_1);
    assertFalse(text.contains("\"crs\""), "CRS84 is GeoParquet's default: no crs member");
    byte[] wgs84 = format.encode(tile("EPSG:4326", degrees), CrsRef.of("EPSG:4326")).bytes();
    Path file = dir.resolve("wgs84.parquet");
    Files.write(file, wgs84);
    JsonNode read =
        JSON.readTree(
            NodeScripts.run(NodeScripts.class, "read-geoparquet.mjs", dir, file.toString()));
    JsonNode crs = JSON.readTree(read.at("/metadata/geo").asText()).at("/columns/geometry/crs");
    assertEquals("GeographicCRS", crs.get("type").asText());
    assertEquals(4326, crs.at("/id/code").asInt());
    Path json = dir.resolve("crs4326.json");
    Files.writeString(json, crs.toString());
    String identified = run("projinfo", "--identify", "@" + json);
    assertTrue(identified.contains("EPSG:4326"), identified);
  }

  /**
   * A PROJJSON is built from the EPSG database once and then read back from the memo: the same
   * JSON, the same file bytes, and from then on written without the database.
   */
  @Test
  void aProjjsonIsRememberedAsItWasBuilt() throws Exception {
    CrsRef britishGrid = CrsRef.of("EPSG:27700");
    assertFalse(GeoParquetFormat.crsWrittenWithoutDatabase(britishGrid), "not written yet");
    assertTrue(GeoParquetFormat.crsWrittenWithoutDatabase(CrsRef.of("OGC:CRS84")));
    GeoParquetFormat format = new GeoParquetFormat();
    RenderedTile tile = tile("EPSG:27700", List.of("POLYGON((1 1, 2 1, 2 2, 1 1))"));
    byte[] first = format.encode(tile, britishGrid).bytes();
    assertTrue(GeoParquetFormat.crsWrittenWithoutDatabase(britishGrid));
    byte[] again = format.encode(tile, britishGrid).bytes();
    assertArrayEquals(first, again);
    assertEquals(Projjson.of(britishGrid), Projjson.of(britishGrid));
    String text = new String(first, StandardCharsets.ISO_8859_1);
    assertTrue(text.contains("\"code\":27700"), "its EPSG code as id");
  }

  @Test
  void anEmptyTileIsAFileOfNoRows() throws Exception {
    GeoParquetFormat format = new GeoParquetFormat();
    byte[] bytes = format.encode(tile("EPSG:3857", List.of()), CrsRef.of("EPSG:3857")).bytes();
    assertEquals(0, format.countFeatures(bytes));
    Path file = dir.resolve("empty.parquet");
    Files.write(file, bytes);
    JsonNode read =
        JSON.readTree(
            NodeScripts.run(NodeScripts.class, "read-geoparquet.mjs", dir, file.toString()));
    assertEquals(0, read.get("rows").asInt(), read.toString());
  }

  private static void flatten(JsonNode n, List<Double> out) {
    if (n.isNumber()) {
      out.add(n.asDouble());
    } else {
      n.forEach(c -> flatten(c, out));
    }
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
