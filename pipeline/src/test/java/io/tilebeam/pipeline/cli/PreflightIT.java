package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.JobSpecParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What can be known before the first claim is checked before it: a CRS that cannot hold tiles and a
 * report that cannot be written are refused with exit 2 and nothing claimed; an output path is
 * normalised before it is checked; and a storage error no retry clears fails its tiles, not the
 * run.
 */
class PreflightIT {

  @TempDir Path dir;

  private Path writeJob(String yaml) throws IOException {
    Path job = dir.resolve("job.yaml");
    Files.writeString(job, yaml);
    return job;
  }

  private TestJobs.Result run(Path job, String... extra) {
    String[] args = new String[6 + extra.length];
    System.arraycopy(
        new String[] {
          "run",
          "--job",
          job.toString(),
          "--home",
          dir.resolve("home").toString(),
          "--runner=DirectRunner"
        },
        0,
        args,
        0,
        6);
    System.arraycopy(extra, 0, args, 6, extra.length);
    return TestJobs.execute(args);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "EPSG:5703, is a vertical CRS (heights or depths)",
    "EPSG:4978, is a geocentric CRS (3-D Cartesian coordinates from the Earth's centre)",
    "EPSG:4979, is a 3-D CRS"
  })
  void aTargetCrsThatCannotHoldTilesIsRefusedBeforeAnyClaim(String crs, String why)
      throws IOException {
    String out = dir.resolve("out").toString();
    TestJobs.Result r =
        run(
            writeJob(
                TestJobs.islandsJob(out).replace("targetCrs: EPSG:3857", "targetCrs: " + crs)));
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(
        r.err()
            .contains(
                "layers[0].targetCrs: "
                    + why
                    + ": tiles need a CRS of two horizontal coordinates, geographic or projected"
                    + " (value: '"
                    + crs
                    + "', line 11)"),
        r.err());
    assertFalse(Files.exists(dir.resolve("home")), "a ledger was made");
  }

  /**
   * A degree box with west > east crosses the antimeridian (the documented rule); wider than half
   * the world that way round it is more likely swapped, and the plan says so; a real crossing is
   * planned without a word.
   */
  @Test
  void aSwappedLookingBoxIsPlannedByTheRuleWithAWarning() {
    String out = dir.resolve("out").toString();
    JobPlan swapped =
        JobPlan.resolve(
            JobSpecParser.parse(
                TestJobs.islandsJob(out).replace("[-10, 40, 10, 60]", "[10, 40, -10, 60]")));
    assertEquals(
        List.of(
            "layers[0].extents[0].bbox [10.0, 40.0, -10.0, 60.0]: west 10.0 > east -10.0 is read"
                + " as crossing the antimeridian, a box 340.0° wide; swap west and east for the"
                + " 20.0° box between them"),
        swapped.warnings());
    JobPlan crossing =
        JobPlan.resolve(
            JobSpecParser.parse(
                TestJobs.islandsJob(out).replace("[-10, 40, 10, 60]", "[170, 40, -170, 60]")));
    assertEquals(List.of(), crossing.warnings());
  }

  /**
   * A job may set a GeoJSONSeq source's reading limits: a feature past them is dead-lettered and
   * the others published; set limits enter the layer's work keys (the defaults add nothing); a
   * limit out of range, or on a format that has none, is refused at its line.
   */
  @Test
  void aSourcesReadingLimitsAreSettingsThatEnterTheKeys() throws IOException {
    Path seq = dir.resolve("long.geojsonseq");
    Files.writeString(
        seq,
        "{\"type\":\"Feature\",\"id\":\"short\",\"properties\":{\"n\":\"x\"},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,50]}}\n"
            + "{\"type\":\"Feature\",\"id\":\"long\",\"properties\":{\"n\":\""
            + "y".repeat(2000)
            + "\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,51]}}\n");
    String base =
        TestJobs.islandsJob(dir.resolve("out").toString())
            .replace("uri: " + TestJobs.SAMPLE_SOURCE, "uri: " + seq)
            .replace("format: geojson", "format: geojsonseq")
            .replace("zooms: [0, 3]", "zooms: [0, 1]");
    String limited =
        base.replace(
            "      format: geojsonseq",
            "      format: geojsonseq\n      limits: {maxStringChars: 1000}");
    Path report = dir.resolve("report.json");

    TestJobs.Result r = run(writeJob(limited), "--report", report.toString());

    assertEquals(ExitCode.OK, r.code(), r.err());
    JsonNode counts = new ObjectMapper().readTree(report.toFile());
    assertEquals(1, counts.get("featuresDeadLettered").asLong(), counts.toString());
    String records = Files.readString(dir.resolve("out/_failed/islands/features.jsonl"));
    assertTrue(records.contains("exceeds the maximum length (1000)"), records);
    String keyed =
        JobPlan.resolve(JobSpecParser.parse(limited)).layers().get(0).template().source();
    String plain = JobPlan.resolve(JobSpecParser.parse(base)).layers().get(0).template().source();
    assertEquals(plain + "#limits=1000,1000,134217728", keyed);

    TestJobs.Result small =
        run(writeJob(limited.replace("{maxStringChars: 1000}", "{maxNesting: 5}")));
    assertEquals(ExitCode.BAD_INPUT, small.code(), small.err());
    assertTrue(
        small
            .err()
            .contains(
                "layers[0].source.limits.maxNesting: maxNesting must be in [16, 10000], was 5"
                    + " (value: '5', line 7)"),
        small.err());
  }

  @Test
  void aReportInAMissingDirectoryIsRefusedBeforeAnyClaim() throws IOException {
    Path report = dir.resolve("missing/report.json");
    TestJobs.Result r =
        run(
            writeJob(TestJobs.islandsJob(dir.resolve("out").toString())),
            "--report",
            report.toString());
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(
        r.err()
            .contains(
                "--report "
                    + report
                    + ": its directory "
                    + dir.resolve("missing")
                    + " does not exist"),
        r.err());
    assertFalse(Files.exists(dir.resolve("home")), "a ledger was made");
    assertFalse(Files.exists(dir.resolve("out")), "output was written");
  }

  /**
   * {@code out/new/../tiles} passes a check of {@code out} and then fails every publish (the kernel
   * cannot step back out of {@code new}, which does not exist); normalised first, it is {@code
   * out/tiles}.
   */
  @Test
  void anOutputPathIsNormalisedBeforeItIsChecked() throws IOException {
    Files.createDirectories(dir.resolve("out"));
    String out = dir.resolve("out") + "/new/../tiles";
    TestJobs.Result r =
        run(writeJob(TestJobs.islandsJob(out).replace("zooms: [0, 3]", "zooms: [0, 1]")));
    assertEquals(ExitCode.OK, r.code(), r.err());
    assertTrue(TestJobs.publishedCount(dir.resolve("out/tiles")) > 0, "no tile under out/tiles");
    assertFalse(Files.exists(dir.resolve("out/new")), "out/new was made");
  }

  /**
   * A layer directory that cannot be written (here a file stands where it goes: "Not a directory",
   * as the kernel says when the tile's zoom directory is made under it) fails that layer's tiles,
   * recorded with their reason, exit 3; the other layer is published.
   */
  @Test
  void aLayerThatCannotBeWrittenFailsItsTilesNotTheRun() throws IOException {
    Path out = dir.resolve("out");
    Files.createDirectories(out);
    Files.writeString(out.resolve("islands"), "not a directory");
    String yaml = TestJobs.islandsJob(out.toString()).replace("zooms: [0, 3]", "zooms: [0, 1]");
    String second =
        yaml.substring(yaml.indexOf("  - name: islands")).replace("name: islands", "name: others");
    Path report = dir.resolve("report.json");

    TestJobs.Result r = run(writeJob(yaml + second), "--report", report.toString());

    assertEquals(ExitCode.TILES_FAILED, r.code(), r.err());
    JsonNode counts = new ObjectMapper().readTree(report.toFile());
    long planned = counts.get("planned").asLong() / 2;
    assertEquals(planned, counts.get("failed").asLong(), counts.toString());
    assertEquals(planned, counts.get("written").asLong(), counts.toString());
    assertEquals(planned, TestJobs.publishedCount(out.resolve("others")));
    String failures = Files.readString(out.resolve("_failed/islands/tiles.jsonl"));
    assertTrue(
        failures.contains("\"cannot be written: Not a directory: " + out.resolve("islands")),
        failures);
  }
}
