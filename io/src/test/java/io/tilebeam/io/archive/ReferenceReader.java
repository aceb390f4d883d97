package io.tilebeam.io.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * The project's reference JavaScript PMTiles reader (the npm package {@code pmtiles} 4.5.0, which
 * {@code scripts/setup.sh} installs into {@code ~/.cache/tilebeam-npm}, or {@code $TILEBEAM_NPM}),
 * run by {@code node} on an archive: what it says of the header, the metadata, and how many of the
 * expected tiles it returns byte for byte ({@code same}; the first misses in {@code wrong}).
 */
public final class ReferenceReader {

  private ReferenceReader() {}

  /**
   * Reads {@code archive} with the npm reader, expecting {@code tiles} ("z/x/y" → bytes, null for a
   * tile the archive must not hold); {@code dir} holds the script and the expectations.
   */
  public static JsonNode read(Path archive, Map<String, byte[]> tiles, Path dir)
      throws IOException, InterruptedException {
    Path expected = Files.createTempFile(dir, "expected", ".txt");
    try (BufferedWriter w = Files.newBufferedWriter(expected)) {
      for (Map.Entry<String, byte[]> t : tiles.entrySet()) {
        byte[] b = t.getValue();
        w.write(
            t.getKey().replace('/', ' ') + " " + (b == null ? "-" : HexFormat.of().formatHex(b)));
        w.write('\n');
      }
    }
    Path script = dir.resolve("read-pmtiles.cjs");
    if (!Files.exists(script)) {
      try (InputStream in = ReferenceReader.class.getResourceAsStream("read-pmtiles.cjs")) {
        Files.copy(in, script);
      }
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
