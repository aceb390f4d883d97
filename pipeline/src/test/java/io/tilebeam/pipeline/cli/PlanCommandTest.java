package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {

  @TempDir Path dir;

  @Test
  void listsEveryTileOnceAsPendingAndWritesNothingElse() throws Exception {
    String job =
        Files.readString(Path.of("../src/samples/sample-job.yaml"))
            .replace(
                "src/samples/islands.geojson",
                Path.of("../src/samples/islands.geojson").toAbsolutePath().toString())
            .replace("uri: out/", "uri: " + dir.resolve("out"));
    Path jobFile = dir.resolve("job.yaml");
    Files.writeString(jobFile, job);
    Path tiles = dir.resolve("tiles.jsonl");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Tilebeam.execute(
            new String[] {
              "plan",
              "--job",
              jobFile.toString(),
              "--home",
              dir.resolve("home").toString(),
              "--tiles-out",
              tiles.toString()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream()));
    assertEquals(ExitCode.OK, code);
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("152 tiles, 152 pending"), out.toString());
    List<String> lines = Files.readAllLines(tiles);
    assertEquals(EndToEndTest.SAMPLE_TILES, lines.size());
    Set<String> keys = new HashSet<>();
    for (String line : lines) {
      JsonNode o = new ObjectMapper().readTree(line);
      assertEquals(Set.of("layer", "tms", "z", "x", "y", "key", "state"), fieldNames(o));
      assertEquals("pending", o.get("state").asText());
      assertEquals("WebMercatorQuad", o.get("tms").asText());
      assertTrue(keys.add(o.get("key").asText()), "duplicate key " + line);
    }
    assertFalse(Files.exists(dir.resolve("home")), "plan created a ledger");
    assertFalse(Files.exists(dir.resolve("out")), "plan wrote output");
  }

  private static Set<String> fieldNames(JsonNode o) {
    Set<String> names = new HashSet<>();
    o.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
