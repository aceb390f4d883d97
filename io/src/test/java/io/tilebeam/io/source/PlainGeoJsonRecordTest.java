package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.transforms.feature.Feature;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The token reading of plain GeoJSON records gives exactly the feature the tree reading gives, and
 * gives nothing (so the tree reading decides) for every record that is not plain.
 */
class PlainGeoJsonRecordTest {

  private static Feature byTree(String record) throws Exception {
    JsonNode node = GeoJsonFeatures.MAPPER.readTree(record);
    return new GeoJsonFeatures().toFeature(node);
  }

  private static Feature byTokens(String record) {
    byte[] bytes = ("  " + record + "  ").getBytes(StandardCharsets.UTF_8);
    return new PlainGeoJsonRecord().read(bytes, 2, bytes.length - 4);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]},\"properties\":{\"n\":1,\"b\":null}}",
        "{\"properties\":{\"z\":{\"a\":[1,2.50,\"x\"]},\"a\":true},\"geometry\":{\"type\":"
            + "\"Polygon\",\"bbox\":[0,0,1,1],\"coordinates\":[[[-1e-3,2E2,9],[1,0,1],[1,1],"
            + "[-0.0,1],[-1e-3,2E2]],[[0.1,0.1],[0.2,0.1],[0.2,0.2],[0.1,0.1]]]},\"type\":\"Feature\"}",
        "{\"type\":\"Feature\",\"id\":\"Zürich\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
            + "[8.5417,47.3769]},\"properties\":null}",
        "{\"type\":\"Feature\",\"id\":-0,\"geometry\":null,\"properties\":{}}",
        "{\"type\":\"Feature\",\"id\":123456789012345678901234567890,\"geometry\":{\"type\":"
            + "\"MultiPoint\",\"coordinates\":[[1,2],[3,4]]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[]},"
            + "\"properties\":{\"s\":\"a\\\"b\"},\"extra\":{\"deep\":[[1],{\"x\":2}]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":"
            + "[[[0,0],[1,1]],[[2,2],[3,3],[4,4]]]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":"
            + "[[[[0,0],[1,0],[1,1],[0,0]]],[[[5,5],[6,5],[6,6],[5,5]]]]},\"properties\":"
            + "{\"big\":1e300,\"n\":12345678901234567890}}",
      })
  void plainRecordsGiveTheTreeReadingsFeature(String record) throws Exception {
    Feature tokens = byTokens(record);
    assertNotNull(tokens, record);
    assertEquals(byTree(record), tokens);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // Corrupt, or more than one value.
        "{\"type\":\"Feature\",\"geometry\":null",
        "{\"type\":\"Feature\",\"geometry\":null} {}",
        // Not a Feature, or a member given twice (the tree keeps the last).
        "{\"type\":\"FeatureCollection\",\"features\":[]}",
        "{\"geometry\":null}",
        "{\"type\":\"Feature\",\"id\":1,\"id\":2,\"geometry\":null}",
        "{\"type\":\"Feature\",\"geometry\":null,\"geometry\":{\"type\":\"Point\","
            + "\"coordinates\":[1,2]}}",
        // Ids the tree reading does not take as ids.
        "{\"type\":\"Feature\",\"id\":1.5,\"geometry\":null}",
        "{\"type\":\"Feature\",\"id\":{\"a\":1},\"geometry\":null}",
        // Geometries to repair or refuse.
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[0,0],[1,0],[1,1],[0,1]]]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
            + "[[[0,0],[1,0],[0,0]]]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,NaN]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,1e999]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,\"2\"]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2,null]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[1,2]]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"coordinates\":[1,2],\"type\":\"Point\"}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"GeometryCollection\",\"geometries\":[]}}",
        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Curve\",\"coordinates\":[]}}",
        "{\"type\":\"Feature\",\"geometry\":5,\"properties\":{}}",
        "{\"type\":\"Feature\",\"geometry\":null,\"properties\":[1]}",
      })
  void everythingElseIsLeftToTheTreeReading(String record) {
    assertNull(byTokens(record), record);
  }

  @Test
  void realCountryPolygonsReadAlike() throws Exception {
    JsonNode collection =
        GeoJsonFeatures.MAPPER.readTree(
            Files.readString(Path.of("../src/fixtures/countries/countries-sample.geojson")));
    int read = 0;
    for (JsonNode feature : collection.get("features")) {
      String record = GeoJsonFeatures.MAPPER.writeValueAsString(feature);
      Feature tokens = byTokens(record);
      assertNotNull(tokens, feature.path("id").asText());
      assertEquals(byTree(record), tokens);
      read++;
    }
    assertEquals(collection.get("features").size(), read);
  }
}
