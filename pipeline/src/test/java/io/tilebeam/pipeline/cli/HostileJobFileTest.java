package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Job files that YAML accepts but the job language does not, and files that are not job files at
 * all: each is refused with exit 2 before a ledger is made or anything written, in one line that
 * names the field, the value (control characters escaped) and the line of the file.
 */
class HostileJobFileTest {

  @TempDir Path dir;

  /** The base job ({@link TestJobs#islandsJob}); line numbers below refer to it. */
  private String job() {
    return TestJobs.islandsJob(dir.resolve("out").toString());
  }

  private String replace(String from, String to) {
    String base = job();
    if (!base.contains(from)) {
      throw new IllegalArgumentException("no '" + from + "' in the base job");
    }
    return base.replace(from, to);
  }

  static Stream<Arguments> hostileJobs() {
    return Stream.of(
        Arguments.of(
            "an anchor",
            "namespace: islands-job",
            "namespace: &dest islands-job",
            "namespace: anchors (&name) are not part of the job language: write each value out"
                + " (value: '&dest', line 1)"),
        Arguments.of(
            "an alias, which a tree reader takes as the text 'dest'",
            "      format: flatgeobuf",
            "      format: *dest",
            "layers[0].output.format: aliases (*name) are not part of the job language: write the"
                + " value out (value: '*dest', line 14)"),
        Arguments.of(
            "a merge key",
            "      format: geojson",
            "      <<: {format: geojson}",
            "layers[0].source.<<: merge keys are not part of the job language: write each field"
                + " out (value: '<<', line 6)"),
        Arguments.of(
            "a key given twice",
            "    targetCrs: EPSG:3857",
            "    targetCrs: EPSG:3857\n    targetCrs: EPSG:4326",
            "layers[0].targetCrs: is given twice in one mapping, on lines 11 and 12 (value:"
                + " 'targetCrs', line 12)"),
        Arguments.of(
            "not a number",
            "[-10, 40, 10, 60]",
            "[-10, .nan, 10, 60]",
            "layers[0].extents[0].bbox[1]: is not a finite number (value: '.nan', line 8)"),
        Arguments.of(
            "minus infinity",
            "[-10, 40, 10, 60]",
            "[-.inf, 40, 10, 60]",
            "layers[0].extents[0].bbox[0]: is not a finite number (value: '-.inf', line 8)"),
        Arguments.of(
            "two documents",
            "namespace: islands-job",
            "namespace: other\n---\nnamespace: islands-job",
            "job: holds more than one YAML document; a job file is one (value: '---', line 2)"),
        Arguments.of(
            "a list as a key",
            "    zooms: [0, 3]",
            "    ? [zooms]\n    : [0, 3]",
            "layers[0]: has a key that is not a plain string (value: 'a list', line 10)"),
        Arguments.of("broken YAML", "    zooms: [0, 3]", "    zooms: [0, 3", "line 11)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostileJobs")
  void isRefusedNamingFieldValueAndLine(String what, String from, String to, String message)
      throws IOException {
    TestJobs.Result r = run(replace(from, to).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertRefused(r, message);
  }

  @Test
  void aResolutionErrorNamesTheLineOfItsField() throws IOException {
    TestJobs.Result r =
        run(replace("EPSG:3857", "EPSG:999999").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertRefused(r, "layers[0].targetCrs: ", "(value: 'EPSG:999999', line 11)");
  }

  @Test
  void controlCharactersInValuesAreEscaped() throws IOException {
    TestJobs.Result r =
        run(
            replace("name: islands", "name: \"isl\\u202Eands\\u001B[31m\"")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertRefused(r, "layers[0].name: ", "'isl\\u{202E}ands\\u{001B}[31m'", "line 3");
    assertFalse(r.err().contains("\u202E"), "raw override in: " + r.err());
    assertFalse(r.err().contains("\u001B"), "raw escape in: " + r.err());
  }

  @Test
  void aFileOverSixteenMebibytesIsNotReadAsAJob() throws IOException {
    byte[] big = new byte[(16 << 20) + 1];
    java.util.Arrays.fill(big, (byte) '#');
    TestJobs.Result r = run(big);
    assertRefused(
        r,
        "--job: is 16777217 bytes, more than the 16 MiB a job file may hold (is it the job file?)");
  }

  @Test
  void controlCharactersInArgumentsAreEscapedToo() {
    TestJobs.Result r = TestJobs.execute("\u001B[2Jrun", "--job", "x");
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    assertTrue(r.err().contains("unknown command '\\u{001B}[2Jrun'"), r.err());
    assertFalse(r.err().contains("\u001B"), "raw escape in: " + r.err());
  }

  @Test
  void aBinaryFileIsNotUtf8Text() throws IOException {
    TestJobs.Result r = run(new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 1, 2, (byte) 0xC3});
    assertRefused(r, "--job: is not UTF-8 text: a job file is YAML (is it a binary file?)");
  }

  @Test
  void aDirectoryIsNotAJobFile() throws IOException {
    Files.createDirectories(dir.resolve("jobs"));
    TestJobs.Result r =
        TestJobs.execute(
            "run",
            "--job",
            dir.resolve("jobs").toString(),
            "--home",
            dir.resolve("home").toString());
    assertRefused(r, "--job: is a directory, not a job file");
  }

  private TestJobs.Result run(byte[] content) throws IOException {
    Path job = dir.resolve("job.yaml");
    Files.write(job, content);
    return TestJobs.execute(
        "run", "--job", job.toString(), "--home", dir.resolve("home").toString());
  }

  private void assertRefused(TestJobs.Result r, String... fragments) {
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
    for (String f : fragments) {
      assertTrue(r.err().contains(f), "'" + f + "' not in: " + r.err());
    }
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    assertFalse(Files.exists(dir.resolve("home")), "the ledger was created");
    assertFalse(Files.exists(dir.resolve("out")), "output was written");
  }
}
