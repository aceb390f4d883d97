package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoJsonSourceTest {

  private static final Path SAMPLE = Path.of("../src/samples/islands.geojson").toAbsolutePath();

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
    String json = limitsJson();
    String huge = hugeFeature();
    String deep = deepFeature();
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

  /**
   * A file read in parts (each part by a source of its own, as on another worker) gives the same
   * features in the same order as read whole (ids, WKB, properties), for parts of every size: one
   * feature each, a few, all in one. The file is GDAL's GeoJSON of the sample (a {@code name} and
   * {@code crs} before the features, one feature a line); between two parts is only the comma
   * between their features.
   */
  @Test
  void partsReadTheSameFeaturesAsTheWholeFile() throws IOException {
    Path gdal = dir.resolve("gdal.geojson");
    Gdal.ogr2ogr("-f", "GeoJSON", gdal.toString(), SAMPLE.toString());
    List<Feature> whole = new ArrayList<>();
    new GeoJsonSource(gdal).forEach(whole::add, b -> fail("bad feature " + b));
    assertTrue(whole.size() > 5, "features: " + whole.size());
    byte[] bytes = Files.readAllBytes(gdal);
    for (long partBytes : new long[] {1, 300, 2_000, Long.MAX_VALUE}) {
      List<GeoJsonSeqSource.Range> parts = parts(gdal, partBytes);
      for (int i = 1; i < parts.size(); i++) {
        String between =
            new String(
                bytes,
                (int) parts.get(i - 1).end(),
                (int) (parts.get(i).start() - parts.get(i - 1).end()),
                java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(between.matches(",\\s*"), "between parts " + parts + ": '" + between + "'");
      }
      if (partBytes == 1) {
        assertEquals(whole.size(), parts.size());
      }
      if (partBytes == Long.MAX_VALUE) {
        assertEquals(1, parts.size());
      }
      List<Feature> read = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : parts) {
        new GeoJsonSource(gdal).forEach(part, read::add, b -> fail("bad feature " + b));
      }
      assertEquals(described(whole), described(read), "parts of " + partBytes + " bytes");
    }
  }

  /**
   * Features past a reading limit are found bad by the part that holds them, with the same byte
   * offset as when the file is read whole, and cost no other feature of their part.
   */
  @Test
  void partsFindTheFeaturesPastAReadingLimit() throws IOException {
    Path f = dir.resolve("limits.geojson");
    Files.writeString(f, limitsJson());
    List<BadFeature> wholeBad = new ArrayList<>();
    new GeoJsonSource(f).forEach(x -> {}, wholeBad::add);
    for (long partBytes : new long[] {1, 150, Long.MAX_VALUE}) {
      List<String> good = new ArrayList<>();
      List<BadFeature> bad = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : parts(f, partBytes)) {
        new GeoJsonSource(f).forEach(part, x -> good.add(x.id()), bad::add);
      }
      assertEquals(List.of("a", "b", "c"), good, "parts of " + partBytes + " bytes");
      assertEquals(wholeBad, bad, "parts of " + partBytes + " bytes");
    }
  }

  /**
   * Corrupt JSON in a file cut into parts fails, with the place, whether the scan finds it (a comma
   * where a feature should be, an array not closed, members after the array) or the part that holds
   * it (inside a feature: a trailing comma, brackets that do not match, a missing comma), whatever
   * the parts' size; and a file with none of these is read whole by its parts.
   */
  @Test
  void corruptJsonFailsTheScanOrThePartThatHoldsIt() throws IOException {
    String a = feature("\"a\"", POINT);
    String b = feature("\"b\"", POINT);
    String head = "{\"type\":\"FeatureCollection\",\n\"features\":[";
    for (String json :
        List.of(
            head + "{\"type\":\"Feature\",}]}",
            head + a + ",]}",
            head + "," + a + "]}",
            head + a + ",," + b + "]}",
            head + a + "]",
            head + a + "],\"crs\":}",
            head + a + "," + b + "}]}",
            head + a + " " + b + "]}",
            head + a + ",{\"type\":\"Feature\",\"properties\":[}]," + b + "]}",
            head + a + ",{\"type\":\"Feature\",\"properties\":{\"k\":\"v]}\"]}]}")) {
      Path f = dir.resolve("corrupt.geojson");
      Files.writeString(f, json);
      for (long partBytes : new long[] {1, Long.MAX_VALUE}) {
        SourceFormatException e =
            assertThrows(
                SourceFormatException.class,
                () -> {
                  for (GeoJsonSeqSource.Range part : parts(f, partBytes)) {
                    new GeoJsonSource(f).forEach(part, x -> {}, x -> {});
                  }
                },
                json);
        assertTrue(
            e.getMessage().contains("corrupt JSON") || e.getMessage().contains("not closed"),
            e.getMessage());
      }
    }
    Path f = dir.resolve("none.geojson");
    Files.writeString(f, "{\"type\":\"Feature\",\"geometry\":" + POINT + "}");
    assertThrows(SourceFormatException.class, () -> parts(f, 1));
    // Strings that hold brackets, commas and escaped quotes are passed over whole.
    String tricky = feature("\"c,]}\\\"[{\"", POINT);
    Path ok = dir.resolve("tricky.geojson");
    Files.writeString(ok, head + " " + a + " ,\n" + tricky + "\t,  " + b + " ]\n, \"x\": [1] }");
    for (long partBytes : new long[] {1, 40, Long.MAX_VALUE}) {
      List<String> ids = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : parts(ok, partBytes)) {
        new GeoJsonSource(ok).forEach(part, x -> ids.add(x.id()), x -> fail("bad " + x));
      }
      assertEquals(List.of("a", "c,]}\"[{", "b"), ids, "parts of " + partBytes + " bytes");
    }
  }

  /**
   * A file in UTF-16 (with its byte order mark; RFC 7946 asks for UTF-8, but the parser reads it)
   * cannot be cut into parts, whose places are bytes: the scan says so, passing no part, and the
   * file is read whole.
   */
  @Test
  void aFileNotInUtf8IsNotCutIntoParts() throws IOException {
    String json =
        "{\"type\":\"FeatureCollection\",\"features\":["
            + feature("\"a\"", POINT)
            + ","
            + feature("\"b\"", POINT)
            + "]}";
    Path f = dir.resolve("utf16.geojson");
    Files.write(f, ("\uFEFF" + json).getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
    List<GeoJsonSeqSource.Range> parts = new ArrayList<>();
    assertFalse(new GeoJsonSource(f).parts(1, parts::add));
    assertEquals(List.of(), parts);
    List<String> ids = new ArrayList<>();
    new GeoJsonSource(f).forEach(x -> ids.add(x.id()), b -> fail("bad feature " + b));
    assertEquals(List.of("a", "b"), ids);
    // Reading goes on past a feature beyond a reading limit by its byte offset: in UTF-16 it has
    // none, and the file fails with the reason rather than losing the features after it unsaid.
    Path limits = dir.resolve("limits16.geojson");
    Files.write(limits, limitsJson().getBytes(java.nio.charset.StandardCharsets.UTF_16));
    SourceFormatException e =
        assertThrows(
            SourceFormatException.class, () -> new GeoJsonSource(limits).forEach(x -> {}, b -> {}));
    assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    // In UTF-8, with or without a byte order mark, it is cut.
    for (String text : List.of(json, "\uFEFF" + json)) {
      Files.write(f, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(2, parts(f, 1).size());
      List<String> read = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : parts(f, 1)) {
        new GeoJsonSource(f).forEach(part, x -> read.add(x.id()), b -> fail("bad feature " + b));
      }
      assertEquals(List.of("a", "b"), read);
    }
  }

  /**
   * Cutting a file in Google Cloud Storage into parts reads it once, from its start (one ranged
   * request: the members before the features array, the array's scan and the members after it come
   * from one stream), and the parts read the same features as the local file's parts.
   */
  @Test
  void aGcsObjectIsCutIntoPartsByOneRead() throws Exception {
    String json =
        "{\"type\":\"FeatureCollection\",\"name\":\"x\",\"features\":["
            + feature("\"a\"", POINT)
            + ",\n"
            + feature("\"b\"", POINT)
            + "],\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:4326\"}}}";
    Path f = dir.resolve("two.geojson");
    Files.writeString(f, json);
    try (io.tilebeam.io.sink.GcsStandIn server = io.tilebeam.io.sink.GcsStandIn.start()) {
      server.upload("data", "two.geojson", Files.readAllBytes(f));
      SourceFile object =
          SourceFile.resolve(
              "gs://data/two.geojson", io.tilebeam.io.storage.Stores.of(server.settings()));
      int before = server.requests().size();
      List<GeoJsonSeqSource.Range> remote = new ArrayList<>();
      assertTrue(new GeoJsonSource(object).parts(1, remote::add));
      List<String> reads = server.requests().subList(before, server.requests().size());
      assertEquals(
          1, reads.stream().filter(q -> q.contains("alt=media")).count(), reads.toString());
      assertEquals(parts(f, 1), remote);
      List<String> ids = new ArrayList<>();
      for (GeoJsonSeqSource.Range part : remote) {
        new GeoJsonSource(object).forEach(part, x -> ids.add(x.id()), b -> fail("bad " + b));
      }
      assertEquals(List.of("a", "b"), ids);
    }
  }

  /**
   * Members before and after a features array larger than the parser's and the scan's buffers: the
   * parts cover every feature, and the members after the array are still read (a corrupt one
   * fails), wherever the buffers' ends fall.
   */
  @Test
  void partsOfALargeFileReadTheMembersAroundItsArray() throws IOException {
    for (int pad : new int[] {0, 7_999, 70_001}) {
      StringBuilder json =
          new StringBuilder("{\"type\":\"FeatureCollection\",\"name\":\"")
              .append("n".repeat(pad))
              .append("\",\"features\":[");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        json.append(i > 0 ? ",\n" : "").append(feature("\"f" + i + "\"", POINT));
        expected.add("f" + i);
      }
      json.append("],\"description\":\"").append("d".repeat(pad)).append("\"");
      Path f = dir.resolve("large.geojson");
      Files.writeString(f, json + "}");
      for (long partBytes : new long[] {1, 10_000, Long.MAX_VALUE}) {
        List<String> ids = new ArrayList<>();
        for (GeoJsonSeqSource.Range part : parts(f, partBytes)) {
          new GeoJsonSource(f).forEach(part, x -> ids.add(x.id()), b -> fail("bad " + b));
        }
        assertEquals(expected, ids, "pad " + pad + ", parts of " + partBytes + " bytes");
      }
      Files.writeString(f, json + ",}");
      SourceFormatException e = assertThrows(SourceFormatException.class, () -> parts(f, 1));
      assertTrue(e.getMessage().contains("corrupt JSON"), e.getMessage());
    }
  }

  private static List<GeoJsonSeqSource.Range> parts(Path f, long partBytes) throws IOException {
    List<GeoJsonSeqSource.Range> parts = new ArrayList<>();
    assertTrue(new GeoJsonSource(f).parts(partBytes, parts::add));
    return parts;
  }

  /** Each feature as its id, hex WKB and properties. */
  private static List<String> described(List<Feature> features) {
    return features.stream()
        .map(x -> x.id() + " " + HexFormat.of().formatHex(x.wkb()) + " " + x.properties())
        .toList();
  }

  private static final String POINT = "{\"type\":\"Point\",\"coordinates\":[1,2]}";

  /** A feature with a string past the default limit. */
  private static String hugeFeature() {
    return "{\"type\":\"Feature\",\"properties\":{\"note\":\""
        + "\\\"x".repeat(JsonLimits.DEFAULT.maxStringChars() / 2 + 1)
        + "\"},\"geometry\":"
        + POINT
        + "}";
  }

  /** A feature nested past the default limit. */
  private static String deepFeature() {
    return "{\"type\":\"Feature\",\"properties\":{\"a\":"
        + "[".repeat(JsonLimits.DEFAULT.maxNesting() + 1)
        + "]".repeat(JsonLimits.DEFAULT.maxNesting() + 1)
        + "},\"geometry\":"
        + POINT
        + "}";
  }

  /** Features a, b and c between features past reading limits, the last of them last. */
  private static String limitsJson() {
    String huge = hugeFeature();
    return "{\"type\":\"FeatureCollection\",\"features\":["
        + feature("\"a\"", POINT)
        + ", "
        + huge
        + " ,\n"
        + feature("\"b\"", POINT)
        + ","
        + deepFeature()
        + ","
        + feature("\"c\"", POINT)
        + ","
        + huge
        + "\n], \"name\": \"after\"}";
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

  /**
   * A {@code crs} member after the features array is found, the array passed over by its brackets
   * and strings (here strings holding brackets and escaped quotes, and more than one block of the
   * scan); in a file that is not UTF-8 the parser goes through the array itself.
   */
  @Test
  void declaredCrsAfterTheFeaturesIsRead() throws IOException {
    StringBuilder features = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      features
          .append(i == 0 ? "" : ",")
          .append("{\"type\":\"Feature\",\"properties\":{\"n\":\"]}[{\\\"")
          .append(i)
          .append("\"},\"geometry\":")
          .append(POINT)
          .append("}");
    }
    String json =
        "{\"type\":\"FeatureCollection\",\"features\":["
            + features
            + "] ,\"name\":[1,{}], \"crs\":{\"type\":\"name\",\"properties\":"
            + "{\"name\":\"urn:ogc:def:crs:EPSG::3857\"}}}";
    Path f = dir.resolve("crs-last.geojson");
    Files.writeString(f, json);
    assertEquals(Optional.of("urn:ogc:def:crs:EPSG::3857"), new GeoJsonSource(f).declaredCrs());
    Path utf16 = dir.resolve("crs-last-utf16.geojson");
    Files.writeString(utf16, json, java.nio.charset.StandardCharsets.UTF_16LE);
    assertEquals(Optional.of("urn:ogc:def:crs:EPSG::3857"), new GeoJsonSource(utf16).declaredCrs());
    Path none = dir.resolve("no-crs.geojson");
    Files.writeString(none, json.substring(0, json.indexOf(", \"crs\"")) + "}");
    assertEquals(Optional.empty(), new GeoJsonSource(none).declaredCrs());
  }

  /** A features array that is not closed is an error that says where it starts. */
  @Test
  void declaredCrsOfAnUnclosedCollectionFails() throws IOException {
    Path f = dir.resolve("open.geojson");
    String json = "{\"type\":\"FeatureCollection\",\"features\":[" + feature("1", POINT) + ",";
    Files.writeString(f, json);
    SourceFormatException e =
        assertThrows(SourceFormatException.class, () -> new GeoJsonSource(f).declaredCrs());
    String where = "the features array at byte " + json.indexOf('[') + " is not closed";
    assertTrue(e.getMessage().contains(where), e.getMessage());
  }
}
