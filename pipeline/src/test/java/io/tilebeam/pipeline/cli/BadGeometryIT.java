package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.sink.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad geometry in a source never fails a run: it is repaired and counted, or goes with its feature
 * id and reason to {@code <output>/_failed/<layer>/features.jsonl}, and every tile is published.
 */
class BadGeometryIT {

  @TempDir Path dir;

  private static String feature(String id, String geometry) {
    return "{\"type\":\"Feature\",\"id\":\""
        + id
        + "\",\"properties\":{},\"geometry\":"
        + geometry
        + "}";
  }

  @Test
  void badFeaturesAreRepairedCountedOrDeadLetteredAndTheRunSucceeds() throws Exception {
    Path source = dir.resolve("bad.geojson");
    Files.writeString(
        source,
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + String.join(
                ",\n",
                feature("ok", "{\"type\":\"Point\",\"coordinates\":[10,10]}"),
                feature("nan", "{\"type\":\"Point\",\"coordinates\":[NaN,10]}"),
                feature("infinite", "{\"type\":\"Point\",\"coordinates\":[1e999,10]}"),
                feature("circle", "{\"type\":\"Circle\",\"coordinates\":[0,0]}"),
                feature("empty", "{\"type\":\"Polygon\",\"coordinates\":[]}"),
                feature(
                    "unclosed",
                    "{\"type\":\"Polygon\",\"coordinates\":[[[20,20],[30,20],[30,30],[20,30]]]}"),
                feature(
                    "bowtie",
                    "{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,10],[10,0],[0,10],[0,0]]]}"),
                feature("pole", "{\"type\":\"Point\",\"coordinates\":[0,90]}"),
                // Across the antimeridian the short way, by a jump and by longitudes beyond 180.
                feature(
                    "jump",
                    "{\"type\":\"Polygon\",\"coordinates\":"
                        + "[[[179,10],[-179,10],[-179,20],[179,20],[179,10]]]}"),
                feature("beyond", "{\"type\":\"LineString\",\"coordinates\":[[175,40],[185,45]]}"))
            + "]}");
    Path out = dir.resolve("out");
    Path job = dir.resolve("job.yaml");
    Files.writeString(
        job,
        "namespace: bad-geometry\n"
            + "layers:\n"
            + "  - name: things\n"
            + "    source: {uri: "
            + source
            + ", format: geojson}\n"
            + "    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n"
            + "    zooms: [0, 1]\n"
            + "    targetCrs: EPSG:3857\n"
            + "    output: {uri: "
            + out
            + ", format: geojson}\n");
    JsonNode rep =
        TestJobs.runReporting(
            dir.resolve("report.json"),
            "--job",
            job.toString(),
            "--home",
            dir.resolve("home").toString(),
            "--runner=DirectRunner");
    assertEquals(5, rep.get("written").asLong(), rep.toString());
    assertEquals(0, rep.get("failed").asLong(), rep.toString());
    assertEquals(10, rep.get("featuresRead").asLong(), rep.toString());
    // Features that cross the antimeridian land in the tiles on both sides of it.
    for (String tile : List.of("1/0/0.geojson", "1/1/0.geojson")) {
      String text = Files.readString(out.resolve("things").resolve(tile));
      assertTrue(text.contains("\"id\":\"jump\""), tile + ": " + text);
      assertTrue(text.contains("\"id\":\"beyond\""), tile + ": " + text);
    }
    assertEquals(1, rep.get("featuresEmpty").asLong(), rep.toString());
    // The unclosed ring is closed once, at read; the bow-tie is split once, before it is cut, so
    // its pieces need no repair in the tiles it reaches.
    assertEquals(2, rep.get("geometriesRepaired").asLong(), rep.toString());

    List<String> records =
        Files.readAllLines(DeadLetters.file(out, "things"), StandardCharsets.UTF_8);
    List<String> ids =
        records.stream()
            .map(l -> l.replaceAll(".*\"featureId\":\"([^\"]*)\".*", "$1"))
            .distinct()
            .sorted()
            .toList();
    assertEquals(List.of("circle", "infinite", "nan", "pole"), ids, String.join("\n", records));
    assertTrue(
        records.stream().anyMatch(l -> l.contains("\"pole\"") && l.contains("\"transform\"")),
        String.join("\n", records));
    assertTrue(
        records.stream().anyMatch(l -> l.contains("unknown geometry type 'Circle'")),
        String.join("\n", records));
    // A record lists every tile its feature failed in alike: the counter counts each.
    long failures =
        records.stream()
            .mapToLong(
                l -> l.contains("\"tiles\":[") ? l.split("\"tiles\":\\[")[1].split(",").length : 1)
            .sum();
    assertEquals(failures, rep.get("featuresDeadLettered").asLong(), String.join("\n", records));
  }
}
