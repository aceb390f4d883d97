package io.tilebeam.io.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
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
    Path expected = dir.resolve("expected.txt");
    try (BufferedWriter w = Files.newBufferedWriter(expected)) {
      for (PmtilesWriter.Tile t : tiles) {
        w.write(
            t.z()
                + " "
                + t.x()
                + " "
                + t.y()
                + " "
                + HexFormat.of().formatHex(contents.get(t.checksum()))
                + "\n");
      }
    }

    JsonNode read = node(archive, expected);
    assertEquals(0, read.get("minZoom").asInt(), read.toString());
    assertEquals(12, read.get("maxZoom").asInt(), read.toString());
    assertEquals(tiles.size(), read.get("addressed").asLong(), read.toString());
    assertEquals(40_001, read.get("contents").asLong(), read.toString());
    assertEquals(40_001, read.get("entries").asLong(), "the ocean is one run: " + read);
    assertEquals(1, read.get("tileType").asInt(), read.toString());
    assertEquals("ocean and land", read.at("/metadata/name").asText(), read.toString());
    assertEquals(tiles.size(), read.get("same").asLong(), read.get("wrong").toString());
  }

  /** What the npm reader says of the archive. */
  private JsonNode node(Path archive, Path expected) throws IOException, InterruptedException {
    Path script = dir.resolve("read-pmtiles.cjs");
    try (InputStream in = getClass().getResourceAsStream("read-pmtiles.cjs")) {
      Files.copy(in, script);
    }
    String npm =
        System.getenv()
            .getOrDefault(
                "TILEBEAM_NPM",
                Path.of(System.getProperty("user.home"), ".cache", "tilebeam-npm").toString());
    ProcessBuilder pb =
        new ProcessBuilder("node", script.toString(), archive.toString(), expected.toString())
            .redirectErrorStream(true);
    pb.environment().put("NODE_PATH", Path.of(npm, "node_modules").toString());
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new IOException("node is not installed; scripts/setup.sh installs it", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(
          "the npm pmtiles reader failed (scripts/setup.sh installs it into " + npm + "): " + out);
    }
    return new ObjectMapper().readTree(out);
  }
}
