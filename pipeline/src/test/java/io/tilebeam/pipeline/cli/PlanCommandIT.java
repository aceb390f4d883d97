package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandIT {

  @TempDir Path dir;

  @Test
  void listsEveryTileOnceAsPendingAndWritesNothingElse() throws Exception {
    Path jobFile = TestJobs.sample(dir);
    Path tiles = dir.resolve("tiles.jsonl");
    TestJobs.Result r = TestJobs.plan(jobFile, dir, tiles);
    assertEquals(ExitCode.OK, r.code(), r.err());
    assertTrue(r.out().contains("173 tiles, 173 pending"), r.out());
    List<String> lines = Files.readAllLines(tiles);
    assertEquals(EndToEndIT.SAMPLE_TILES, lines.size());
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
