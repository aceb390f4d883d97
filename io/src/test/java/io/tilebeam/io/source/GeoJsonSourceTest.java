package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoJsonSourceTest {

  @TempDir Path dir;

  private List<Feature> read(String json) throws IOException {
    Path f = dir.resolve("in.geojson");
    Files.writeString(f, json);
    List<Feature> out = new ArrayList<>();
    new GeoJsonSource(f).forEach(out::add, b -> fail("bad feature " + b));
    return out;
  }

  @Test
  void idsComeFromTheSourceOrFromTheContent() throws IOException {
    String noId =
        "{\"type\":\"Feature\",\"properties\":{\"b\":1,\"a\":2},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}";
    List<Feature> f =
        read(
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":7,"
                + "\"properties\":null,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},"
                + noId
                + "]}");
    assertEquals("7", f.get(0).id());
    assertEquals("{}", f.get(0).properties());
    assertEquals("{\"a\":2,\"b\":1}", f.get(1).properties());
    assertTrue(f.get(1).id().startsWith("sha256:"), f.get(1).id());
    // The same content gives the same id on every read.
    assertEquals(
        f.get(1).id(),
        read("{\"type\":\"FeatureCollection\",\"features\":[" + noId + "]}").get(0).id());
  }

  @Test
  void corruptJsonNamesTheLineAndByteOffset() {
    SourceFormatException e =
        assertThrows(
            SourceFormatException.class,
            () ->
                read("{\"type\":\"FeatureCollection\",\n\"features\":[{\"type\":\"Feature\",}]}"));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertTrue(e.getMessage().contains("byte "), e.getMessage());
  }

  @Test
  void badFeaturesCostOnlyThemselvesAndSayWhy() throws IOException {
    Path f = dir.resolve("bad.geojson");
    Files.writeString(
        f,
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + feature("\"nan\"", "{\"type\":\"Point\",\"coordinates\":[NaN,1]}")
            + ",\n"
            + feature("\"inf\"", "{\"type\":\"Point\",\"coordinates\":[1e999,1]}")
            + ",\n"
            + feature("\"short\"", "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,1],[0,0]]]}")
            + ",\n"
            + feature(null, "{\"type\":\"Circle\",\"coordinates\":[0,0]}")
            + ",\n"
            + feature(
                "\"unclosed\"",
                "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,1]]]}")
            + ",\n"
            + feature("\"empty\"", "{\"type\":\"MultiPolygon\",\"coordinates\":[]}")
            + "]}");
    List<Feature> good = new ArrayList<>();
    List<BadFeature> bad = new ArrayList<>();
    GeoJsonSource source = new GeoJsonSource(f);
    source.forEach(good::add, bad::add);
    assertEquals(List.of("unclosed", "empty"), good.stream().map(Feature::id).toList());
    assertEquals(1, source.ringsClosed());
    assertEquals(
        List.of("nan", "inf", "short", "feature at line 5, column 1 (byte 352)"),
        bad.stream().map(BadFeature::featureId).toList());
    assertTrue(bad.get(0).reason().contains("not finite: [\"NaN\",1]"), bad.get(0).reason());
    assertTrue(bad.get(1).reason().contains("not finite"), bad.get(1).reason());
    assertTrue(bad.get(2).reason().contains("3 positions"), bad.get(2).reason());
    assertTrue(bad.get(3).reason().contains("'Circle'"), bad.get(3).reason());
  }

  /**
   * A feature past a reading limit (a string longer than the default {@link
   * JsonLimits#maxStringChars}, a nesting deeper than the default {@link JsonLimits#maxNesting}) is
   * dead-lettered with its byte offset, and the features after it are read: in the middle of the
   * array, and as its last element.
   */
  @Test
  void aFeaturePastAReadingLimitCostsOnlyItself() throws IOException {
    String point = "{\"type\":\"Point\",\"coordinates\":[1,2]}";
    String huge =
        "{\"type\":\"Feature\",\"properties\":{\"note\":\""
            + "\\\"x".repeat(JsonLimits.DEFAULT.maxStringChars() / 2 + 1)
            + "\"},\"geometry\":"
            + point
            + "}";
    String deep =
        "{\"type\":\"Feature\",\"properties\":{\"a\":"
            + "[".repeat(JsonLimits.DEFAULT.maxNesting() + 1)
            + "]".repeat(JsonLimits.DEFAULT.maxNesting() + 1)
            + "},\"geometry\":"
            + point
            + "}";
    String head = "{\"type\":\"FeatureCollection\",\"features\":[";
    String json =
        head
            + feature("\"a\"", point)
            + ", "
            + huge
            + " ,\n"
            + feature("\"b\"", point)
            + ","
            + deep
            + ","
            + feature("\"c\"", point)
            + ","
            + huge
            + "\n], \"name\": \"after\"}";
    Path f = dir.resolve("limits.geojson");
    Files.writeString(f, json);
    List<Feature> good = new ArrayList<>();
    List<BadFeature> bad = new ArrayList<>();
    new GeoJsonSource(f).forEach(good::add, bad::add);

    assertEquals(List.of("a", "b", "c"), good.stream().map(Feature::id).toList());
    int first = json.indexOf(huge);
    assertEquals(
        List.of(
            "feature at byte " + first,
            "feature at byte " + json.indexOf(deep),
            "feature at byte " + json.indexOf(huge, first + 1)),
        bad.stream().map(BadFeature::featureId).toList());
    assertTrue(
        bad.get(0).reason().startsWith("exceeds a reading limit: String length ("),
        bad.get(0).reason());
    assertTrue(bad.get(1).reason().contains("nesting depth"), bad.get(1).reason());
  }

  private static String feature(String id, String geometry) {
    return "{\"type\":\"Feature\","
        + (id == null ? "" : "\"id\":" + id + ",")
        + "\"properties\":{},\"geometry\":"
        + geometry
        + "}";
  }

  @Test
  void declaredCrsIsRead() throws IOException {
    Path f = dir.resolve("crs.geojson");
    Files.writeString(
        f,
        "{\"type\":\"FeatureCollection\",\"crs\":{\"type\":\"name\",\"properties\":"
            + "{\"name\":\"urn:ogc:def:crs:EPSG::3857\"}},\"features\":[]}");
    assertEquals(Optional.of("urn:ogc:def:crs:EPSG::3857"), new GeoJsonSource(f).declaredCrs());
  }
}
