package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.storage.GcsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The formats as the parser and planner see them: by name, by field, and resolved. */
class SourceFormatRegistryTest {

  @TempDir Path dir;

  private static SourceFormat format(String name) {
    return SourceFormats.named(name).orElseThrow();
  }

  @Test
  void everyFormatHasItsOwnName() {
    Set<String> names = new HashSet<>();
    SourceFormats.ALL.forEach(f -> assertTrue(names.add(f.name()), f.name()));
    assertEquals(
        List.of("flatgeobuf", "geojson", "geojsonseq", "geoparquet", "geotiff", "postgis"),
        SourceFormats.names());
    assertTrue(SourceFormats.named("shapefile").isEmpty());
  }

  @Test
  void fieldsSayWhichFormatsTakeThem() {
    assertEquals(List.of("flatgeobuf", "geoparquet", "postgis"), SourceFormats.taking("idColumn"));
    assertEquals(List.of("geojson", "geojsonseq"), SourceFormats.taking("limits"));
    assertEquals(List.of("postgis"), SourceFormats.taking("versionQuery"));
    assertTrue(format("geojsonseq").limitFields().contains("maxRecordBytes"));
    assertFalse(format("geojson").limitFields().contains("maxRecordBytes"));
  }

  @Test
  void onlyGeoJsonImpliesACrs() {
    assertEquals("OGC:CRS84", format("geojson").impliedCrs());
    assertEquals("OGC:CRS84", format("geojsonseq").impliedCrs());
    assertNull(format("flatgeobuf").impliedCrs());
    assertNull(format("postgis").impliedCrs());
    assertNull(format("geotiff").impliedCrs());
  }

  @Test
  void aFileThatIsMissingOrOfAnotherFormatIsTheUrisFault() throws Exception {
    GcsSettings gcs = GcsSettings.fromEnvironment();
    String missing = dir.resolve("missing.geojson").toString();
    SourceFieldException e =
        assertThrows(
            SourceFieldException.class,
            () ->
                format("geojson")
                    .resolve(missing, SourceOptions.NONE, io.tilebeam.io.storage.Stores.of(gcs)));
    assertEquals("uri", e.field());
    assertEquals(missing, e.value());

    Path json = dir.resolve("a.geojson");
    Files.writeString(json, "{\"type\":\"FeatureCollection\",\"features\":[]}");
    e =
        assertThrows(
            SourceFieldException.class,
            () ->
                format("flatgeobuf")
                    .resolve(
                        json.toString(),
                        SourceOptions.NONE,
                        io.tilebeam.io.storage.Stores.of(gcs)));
    assertEquals("uri", e.field());
  }

  @Test
  void postgisFieldsAreCheckedTogether() {
    SourceOptions both = new SourceOptions(null, "t", "select 1", null, "1", null, null);
    assertEquals(
        "table",
        assertThrows(SourceFieldException.class, () -> format("postgis").checkFields(both))
            .field());
    SourceOptions noVersion = new SourceOptions(null, "t", null, null, null, null, null);
    assertEquals(
        "version",
        assertThrows(SourceFieldException.class, () -> format("postgis").checkFields(noVersion))
            .field());
  }

  @Test
  void aResolvedSourceTravelsToTheWorkersAndKeepsItsIdentity() throws Exception {
    Path seq = dir.resolve("a.geojsonl");
    Files.writeString(
        seq,
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}\n");
    SplitSource plain =
        (SplitSource)
            format("geojsonseq")
                .resolve(
                    seq.toString(),
                    SourceOptions.NONE,
                    io.tilebeam.io.storage.Stores.of(GcsSettings.fromEnvironment()));
    LayerSource limited =
        format("geojsonseq")
            .resolve(
                seq.toString(),
                new SourceOptions(
                    null, null, null, null, null, null, new JsonLimits(5000, 64, 1 << 20)),
                io.tilebeam.io.storage.Stores.of(GcsSettings.fromEnvironment()));
    SplitSource copy = SerializableUtils.clone(plain);
    assertEquals(plain.identity(), copy.identity());
    assertEquals(1, copy.splits("layer").size());
    // Set limits decide which features are read: they are part of the identity.
    assertEquals(plain.identity() + "#limits=5000,64,1048576", limited.identity());
  }
}
