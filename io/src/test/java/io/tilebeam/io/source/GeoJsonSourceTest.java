package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    new GeoJsonSource(f).forEach(out::add);
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
  void declaredCrsIsRead() throws IOException {
    Path f = dir.resolve("crs.geojson");
    Files.writeString(
        f,
        "{\"type\":\"FeatureCollection\",\"crs\":{\"type\":\"name\",\"properties\":"
            + "{\"name\":\"urn:ogc:def:crs:EPSG::3857\"}},\"features\":[]}");
    assertEquals(Optional.of("urn:ogc:def:crs:EPSG::3857"), new GeoJsonSource(f).declaredCrs());
  }
}
