package io.tilebeam.codec.pmtiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
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
    String out =
        io.tilebeam.io.source.NodeScripts.run(
            ReferenceReader.class,
            "read-pmtiles.cjs",
            dir,
            archive.toString(),
            expected.toString());
    return new ObjectMapper().readTree(out);
  }
}
