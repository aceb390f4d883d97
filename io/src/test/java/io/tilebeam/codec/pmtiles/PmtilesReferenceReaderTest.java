package io.tilebeam.codec.pmtiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive tilebeam writes, read by the project's reference JavaScript reader (the npm package
 * {@code pmtiles} 4.5.0, which {@code scripts/setup.sh} installs into {@code
 * ~/.cache/tilebeam-npm}, or {@code $TILEBEAM_NPM}): its header, its metadata and every tile, an
 * ocean of identical tiles and 40,000 distinct ones behind leaf directories.
 */
class PmtilesReferenceReaderTest {

  @TempDir Path dir;

  @Test
  void theNpmReaderReadsTheHeaderTheMetadataAndEveryTile() throws Exception {
    Map<String, byte[]> contents = new HashMap<>();
    List<PmtilesWriter.Tile> tiles = TestArchives.oceanAndLand(23, 120, contents);
    Path archive = dir.resolve("test.pmtiles");
    try (OutputStream out = Files.newOutputStream(archive)) {
      PmtilesWriter.write(
          tiles,
          t -> contents.get(t.checksum()),
          new PmtilesWriter.Info(
              1, 1, new double[] {-180, -85, 180, 85}, "{\"name\":\"ocean and land\"}"),
          out);
    }
    Map<String, byte[]> expected = new java.util.LinkedHashMap<>();
    for (PmtilesWriter.Tile t : tiles) {
      expected.put(t.z() + "/" + t.x() + "/" + t.y(), contents.get(t.checksum()));
    }

    JsonNode read = ReferenceReader.read(archive, expected, dir);
    assertEquals(0, read.get("minZoom").asInt(), read.toString());
    assertEquals(12, read.get("maxZoom").asInt(), read.toString());
    assertEquals(tiles.size(), read.get("addressed").asLong(), read.toString());
    assertEquals(40_001, read.get("contents").asLong(), read.toString());
    assertEquals(40_001, read.get("entries").asLong(), "the ocean is one run: " + read);
    assertEquals(1, read.get("tileType").asInt(), read.toString());
    assertEquals("ocean and land", read.at("/metadata/name").asText(), read.toString());
    assertEquals(tiles.size(), read.get("same").asLong(), read.get("wrong").toString());
  }
}
