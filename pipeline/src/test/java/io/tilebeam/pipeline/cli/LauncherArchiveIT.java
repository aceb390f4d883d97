package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code scripts/tilebeam}'s class data sharing archive beside a copy of the launcher (the shaded
 * jar linked into a temporary root, so the archive is this test's own): made by the first run, and
 * left alone when JFR or a Java agent is switched on, from the launcher's options or the JVM's own
 * environment variables, since Debian's OpenJDK 17 crashes when a class-file load hook meets an
 * archived class. Runs after {@code package}, since it needs the jar.
 */
@Tag("slow")
class LauncherArchiveIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir static Path dir;
  private static Path launcher;
  private static Path archive;

  /** A root of its own: the launcher copied, the jar linked; the first run makes the archive. */
  @BeforeAll
  static void firstRunMakesTheArchive() throws Exception {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("scripts"));
    Files.createDirectories(root.resolve("pipeline/target"));
    launcher = root.resolve("scripts/tilebeam");
    Files.copy(ROOT.resolve("scripts/tilebeam"), launcher);
    Files.createSymbolicLink(
        root.resolve("pipeline/target/tilebeam.jar"), ROOT.resolve("pipeline/target/tilebeam.jar"));
    archive = root.resolve("pipeline/target/tilebeam.jsa");
    String out = run("first", Map.of());
    assertTrue(Files.size(archive) > 0, out);
  }

  /** Runs the islands job in {@code dir/name} with {@code env}; its output, after exit 0. */
  private static String run(String name, Map<String, String> env) throws Exception {
    Path work = Files.createDirectories(dir.resolve(name));
    Path job = work.resolve("job.yaml");
    Files.writeString(job, TestJobs.islandsJob(work.resolve("out").toUri().toString()));
    ProcessBuilder pb =
        new ProcessBuilder(
                List.of(
                    launcher.toString(),
                    "run",
                    "--job",
                    job.toString(),
                    "--home",
                    work.resolve("home").toString(),
                    "--progress-every",
                    "off"))
            .redirectErrorStream(true);
    pb.environment().remove("TILEBEAM_CDS");
    pb.environment().remove("TILEBEAM_JAVA_OPTS");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the run finished");
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("9 claimed, 9 written, 0 unchanged, 0 failed"), out);
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"TILEBEAM_JAVA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"})
  void jfrAtStartUpRunsWithoutTheArchive(String variable) throws Exception {
    long before = Files.getLastModifiedTime(archive).toMillis();
    Path recording = dir.resolve(variable + ".jfr");
    String out =
        run(
            variable,
            Map.of(
                variable, "-XX:StartFlightRecording=filename=" + recording + ",settings=default"));
    assertTrue(out.contains("the class data sharing archive is not used"), out);
    assertFalse(out.contains("SIGSEGV"), out);
    assertTrue(Files.size(recording) > 0, "the recording was written");
    assertEquals(before, Files.getLastModifiedTime(archive).toMillis(), "the archive is kept");
  }
}
