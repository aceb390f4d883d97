package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.format.FlatGeobufFormat;
import io.tilebeam.io.sink.DeadLetters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real country polygons (the fixture of {@code src/fixtures/countries}: nine countries, Fiji across
 * the antimeridian) through the whole graph at zooms 0-4: no country goes missing from the zoom-0
 * tile or from any zoom, nothing is dead-lettered, GDAL reads every tile, and the default runner
 * (Flink {@code [local]}) publishes the same bytes as the DirectRunner.
 */
class RealCountriesJobIT {

  private static final Path FIXTURE =
      Path.of("../src/fixtures/countries/countries-sample.geojson").toAbsolutePath().normalize();
  private static final Set<String> COUNTRIES =
      new TreeSet<>(Set.of("AND", "CYP", "FJI", "LIE", "LSO", "LUX", "MCO", "SMR", "VAT"));

  @TempDir Path dir;

  private Path job(Path out) throws IOException {
    Path job = Files.createTempFile(dir, "job", ".yaml");
    Files.writeString(
        job,
        "namespace: real-countries\n"
            + "layers:\n"
            + "  - name: countries\n"
            + "    source: {uri: "
            + FIXTURE
            + ", format: geojson}\n"
            + "    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n"
            + "    zooms: [0, 4]\n"
            + "    targetCrs: EPSG:3857\n"
            + "    output: {uri: "
            + out
            + ", format: flatgeobuf}\n");
    return job;
  }

  private JsonNode run(String name, String... runner) throws IOException {
    Path out = dir.resolve(name);
    String[] args =
        Stream.concat(
                Stream.of(
                    "--job", job(out).toString(), "--home", dir.resolve("home-" + name).toString()),
                Stream.of(runner))
            .toArray(String[]::new);
    return TestJobs.runReporting(dir.resolve(name + ".json"), args);
  }

  /** The countries (their {@code A3} property) in one published tile, as GDAL reads it. */
  private static Set<String> ids(Path tile) throws IOException, InterruptedException {
    new FlatGeobufFormat().countFeatures(Files.readAllBytes(tile));
    Process p =
        new ProcessBuilder("ogrinfo", "-ro", "-al", "-q", "-geom=NO", tile.toString())
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), text);
    Set<String> found = new TreeSet<>();
    Matcher m = Pattern.compile("A3 \\(String\\) = (\\w+)").matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  @Test
  void everyCountryReachesEveryZoomAndBothRunnersPublishTheSameBytes() throws Exception {
    JsonNode direct = run("direct", "--runner=DirectRunner");
    assertEquals(341, direct.get("written").asLong(), direct.toString());
    assertEquals(0, direct.get("failed").asLong(), direct.toString());
    assertEquals(0, direct.get("featuresDeadLettered").asLong(), direct.toString());
    assertEquals(9, direct.get("featuresRead").asLong(), direct.toString());
    Path tiles = dir.resolve("direct").resolve("countries");
    assertFalse(Files.exists(DeadLetters.file(dir.resolve("direct"), "countries")));

    assertEquals(COUNTRIES, ids(tiles.resolve("0/0/0.fgb")), "zoom 0 holds every country");
    for (int z = 1; z <= 4; z++) {
      Set<String> seen = new TreeSet<>();
      try (Stream<Path> s = Files.list(tiles.resolve(String.valueOf(z)))) {
        for (Path column : s.toList()) {
          try (Stream<Path> ys = Files.list(column)) {
            for (Path tile : ys.toList()) {
              seen.addAll(ids(tile));
            }
          }
        }
      }
      assertEquals(COUNTRIES, seen, "zoom " + z + " holds every country in some tile");
    }

    JsonNode flink = run("flink");
    assertEquals(341, flink.get("written").asLong(), flink.toString());
    Map<String, String> a = TestJobs.publishedTiles(dir.resolve("direct"));
    Map<String, String> b = TestJobs.publishedTiles(dir.resolve("flink"));
    assertEquals(341, a.size());
    assertEquals(a, b, "the default runner publishes the DirectRunner's bytes");
    assertTrue(direct.get("verticesWritten").asLong() > 16_707, direct.toString());
  }
}
