package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fast way of reading GeoJSON features (straight from the parser's tokens) gives exactly what
 * the tree reader gives, for files GDAL writes and for hand-written features of every geometry type
 * with members in any order; what it leaves to the tree reader (faults, GeometryCollections) it
 * leaves with the parser at the feature's end.
 */
class GeoJsonStreamedFeaturesTest {

  private static final Path SAMPLE = Path.of("../src/samples/islands.geojson").toAbsolutePath();

  @TempDir Path dir;

  /** Features the fast way reads, each with members in an order of its own. */
  private static final List<String> FAST =
      List.of(
          "{\"type\":\"Feature\",\"id\":1,\"properties\":{\"a\":1.5,\"b\":null},"
              + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1.25,-2e-3,99]}}",
          "{\"geometry\":{\"coordinates\":[[0,0],[1,1]],\"type\":\"LineString\","
              + "\"bbox\":[0,0,1,1]},\"properties\":{\"n\":[1,{\"x\":2}]},\"type\":\"Feature\"}",
          "{\"type\":\"Feature\",\"properties\":null,\"geometry\":{\"type\":\"MultiPoint\","
              + "\"coordinates\":[[1,2],[3,4.5]]}}",
          "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiLineString\","
              + "\"coordinates\":[[[0,0],[1,0]],[],[[2,2],[3,3],[4,2]]]},\"extra\":{\"k\":[1,2]}}",
          "{\"type\":\"Feature\",\"id\":\"hole\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
              + "\"coordinates\":[[[0,0],[10,0],[10,10],[0,10]],[[2,2],[2,4],[4,4],[2,2]]]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPolygon\","
              + "\"coordinates\":[[[[0,0],[1,0],[1,1],[0,0]]],[],[[[5,5],[6,5],[6,6],[5,5]]]]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":null}",
          "{\"type\":\"Feature\",\"properties\":{}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
              + "\"coordinates\":[]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\","
              + "\"coordinates\":[123456789012345678901234567890,1E+2]}}");

  /** Features left to the tree reader: faults, and a GeometryCollection. */
  private static final List<String> LEFT =
      List.of(
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"GeometryCollection\","
              + "\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]}]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\","
              + "\"coordinates\":[1]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
              + "\"coordinates\":[[[0,0],[1,1],[0,0]]]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\","
              + "\"coordinates\":[[0,0],[[1,1]]]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\","
              + "\"coordinates\":[[0,0],[1,0],[1,1],[0,0]]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\","
              + "\"coordinates\":[1,\"2\"]}}",
          "{\"type\":\"Feature\",\"properties\":[1],\"geometry\":null}",
          "{\"type\":\"Thing\",\"properties\":{},\"geometry\":null}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Circle\","
              + "\"coordinates\":[0,0]}}",
          "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\","
              + "\"coordinates\":[1e999,0]}}");

  @Test
  void readsWellFormedFeaturesAndLeavesTheRestAtTheirEnd() throws IOException {
    for (String json : FAST) {
      assertNotNull(readOne(json), json);
    }
    for (String json : LEFT) {
      assertNull(readOne(json), json);
    }
  }

  /** Reads the feature in {@code [json, 7]}; checks the parser is left at the 7 after it. */
  private static Feature readOne(String json) throws IOException {
    try (JsonParser p = GeoJsonFeatures.MAPPER.getFactory().createParser("[" + json + ",7]")) {
      p.nextToken();
      p.nextToken();
      Feature f = new GeoJsonFeatures().read(p, GeoJsonFeatures.MAPPER);
      assertEquals(JsonToken.END_OBJECT, p.currentToken(), json);
      assertEquals(JsonToken.VALUE_NUMBER_INT, p.nextToken(), json);
      assertEquals(7, p.getIntValue(), json);
      return f;
    }
  }

  @Test
  void givesWhatTheTreeReaderGivesForGdalsGeoJson() throws IOException {
    Path gdal = dir.resolve("gdal.geojson");
    Gdal.ogr2ogr("-f", "GeoJSON", gdal.toString(), SAMPLE.toString());
    assertSameAsTree(gdal);
  }

  @Test
  void givesWhatTheTreeReaderGivesForEveryGeometryType() throws IOException {
    List<String> all = new ArrayList<>(FAST);
    all.addAll(LEFT);
    Path f = dir.resolve("all.geojson");
    Files.writeString(
        f, "{\"type\":\"FeatureCollection\",\"features\":[" + String.join(",\n", all) + "]}");
    assertSameAsTree(f);
  }

  /** The source reads the same features, bad ones and closed rings as the tree reader alone. */
  private static void assertSameAsTree(Path file) throws IOException {
    List<String> read = new ArrayList<>();
    GeoJsonSource source = new GeoJsonSource(file);
    source.forEach(x -> read.add(described(x)), b -> read.add("bad " + b.reason()));

    List<String> tree = new ArrayList<>();
    GeoJsonFeatures features = new GeoJsonFeatures();
    for (JsonNode node : GeoJsonFeatures.MAPPER.readTree(file.toFile()).get("features")) {
      try {
        tree.add(described(features.toFeature(node)));
      } catch (IllegalArgumentException e) {
        tree.add("bad " + e.getMessage());
      }
    }
    assertEquals(tree, read);
    assertEquals(features.ringsClosed(), source.ringsClosed());
  }

  private static String described(Feature f) {
    return f.id() + " " + HexFormat.of().formatHex(f.wkb()) + " " + f.properties();
  }
}
