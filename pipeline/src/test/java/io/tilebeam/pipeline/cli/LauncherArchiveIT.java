package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code scripts/tilebeam}'s class data sharing archive beside a copy of the launcher (the shaded
 * jar linked into a temporary root, so the archive is this test's own): made by the first run, and
 * left alone when JFR or a Java agent is switched on, from the launcher's options or the JVM's own
 * environment variables, since Debian's OpenJDK 17 crashes when a class-file load hook meets an
 * archived class; one for each JVM build (the {@code java} of {@code JAVA_HOME} where that is set,
 * else the {@code PATH}'s), which refuses another's; none recorded where it cannot be written, and
 * put in {@code TILEBEAM_CDS_DIR} when that is set. Also that {@code scripts/flink-session.sh},
 * which picks its JVM the same way, needs one only to start a cluster. Runs after {@code package},
 * since it needs the jar.
 */
@Tag("slow")
class LauncherArchiveIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @TempDir static Path dir;
  private static Path launcher;
  private static Path target;

  /** A root of its own: the launcher copied, the jar linked; the first run makes the archive. */
  @BeforeAll
  static void firstRunMakesTheArchive() throws Exception {
    Path root = dir.resolve("root");
    Files.createDirectories(root.resolve("scripts"));
    Files.createDirectories(root.resolve("pipeline/target"));
    launcher = root.resolve("scripts/tilebeam");
    Files.copy(ROOT.resolve("scripts/tilebeam"), launcher);
    Files.copy(ROOT.resolve("scripts/jvm-archive.sh"), root.resolve("scripts/jvm-archive.sh"));
    Files.createSymbolicLink(
        root.resolve("pipeline/target/tilebeam.jar"), ROOT.resolve("pipeline/target/tilebeam.jar"));
    target = root.resolve("pipeline/target");
    String out = run("first", Map.of());
    assertEquals(1, archives().size(), out);
  }

  /** The archives beside the jar, by name, with their modification times. */
  private static Map<String, Long> archives() throws IOException {
    return archives(target);
  }

  /** The archives in {@code directory}, by name, with their modification times. */
  private static Map<String, Long> archives(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      Map<String, Long> found = new TreeMap<>();
      for (Path f : files.filter(f -> f.toString().endsWith(".jsa")).toList()) {
        found.put(f.getFileName().toString(), Files.getLastModifiedTime(f).toMillis());
      }
      return found;
    }
  }

  /**
   * Another JVM build as the launcher tells them apart, by the executable it finds: a {@code java}
   * in {@code bin} that notes each start in {@code marker} and runs this JDK's.
   */
  private static void javaWrapper(Path bin, Path marker) throws IOException {
    Path java = Files.createDirectories(bin).resolve("java");
    String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Files.writeString(
        java, "#!/usr/bin/env bash\necho >> " + marker + "\nexec " + real + " \"$@\"\n");
    assertTrue(java.toFile().setExecutable(true));
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
    pb.environment().remove("_JAVA_OPTIONS");
    pb.environment().remove("TILEBEAM_CDS_DIR");
    pb.environment().remove("JAVA_HOME");
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
    Map<String, Long> before = archives();
    Path recording = dir.resolve(variable + ".jfr");
    String out =
        run(
            variable,
            Map.of(
                variable, "-XX:StartFlightRecording=filename=" + recording + ",settings=default"));
    assertTrue(out.contains("the class data sharing archive is not used"), out);
    assertFalse(out.contains("SIGSEGV"), out);
    assertTrue(Files.size(recording) > 0, "the recording was written");
    assertEquals(before, archives(), "the archive is kept");
  }

  /**
   * Where the archive cannot be written (a read-only installation; here a directory that cannot be
   * made), the run records none and succeeds: the JVM, left to try, exits with status 1 after the
   * run's work is done.
   */
  @Test
  void noArchiveWhereItCannotBeWritten() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
    Map<String, Long> before = archives();
    run("read-only", Map.of("TILEBEAM_CDS_DIR", file.resolve("archives").toString()));
    assertEquals(before, archives());
  }

  /** {@code TILEBEAM_CDS_DIR} puts the archive elsewhere than beside the jar. */
  @Test
  void theArchiveGoesWhereTheVariableSays() throws Exception {
    Path elsewhere = dir.resolve("cds");
    run("elsewhere", Map.of("TILEBEAM_CDS_DIR", elsewhere.toString()));
    assertEquals(1, archives(elsewhere).size());
  }

  /**
   * Another JVM build (here the same JDK behind a wrapper script, which the launcher tells apart by
   * the executable it finds) gets an archive of its own in place of the other's, and the first
   * build its own again after it.
   */
  @Test
  void eachJvmBuildHasItsOwnArchive() throws Exception {
    Map<String, Long> first = archives();
    Path bin = dir.resolve("other-jvm/bin");
    Path marker = dir.resolve("other-jvm-ran");
    javaWrapper(bin, marker);
    String path = bin + ":" + System.getenv("PATH");
    run("other-jvm", Map.of("PATH", path));
    assertTrue(Files.exists(marker), "the JVM on the PATH ran");
    Map<String, Long> other = archives();
    assertEquals(1, other.size(), other.toString());
    assertFalse(first.keySet().equals(other.keySet()), other + " beside " + first);
    run("first-again", Map.of());
    assertEquals(first.keySet(), archives().keySet());
  }

  /**
   * {@code JAVA_HOME}, where it is set, names the JVM, as it does for Maven: its {@code bin/java}
   * runs the job ahead of the one on the {@code PATH}, and has an archive of its own. One without a
   * {@code bin/java} is refused before anything runs, with the variable and its value in the
   * message.
   */
  @Test
  void javaHomeNamesTheJvm() throws Exception {
    Map<String, Long> first = archives();
    Path home = dir.resolve("java-home");
    Path marker = dir.resolve("java-home-ran");
    javaWrapper(home.resolve("bin"), marker);
    run("java-home", Map.of("JAVA_HOME", home.toString()));
    assertTrue(Files.exists(marker), "the JVM of JAVA_HOME ran");
    Map<String, Long> other = archives();
    assertEquals(1, other.size(), other.toString());
    assertFalse(first.keySet().equals(other.keySet()), other + " beside " + first);

    Path empty = Files.createDirectories(dir.resolve("no-java-home"));
    String out = withJavaHome(empty, launcher.toString(), "run", "--job", "unused.yaml");
    assertTrue(out.startsWith("exit 2\n"), out);
    assertTrue(out.contains("JAVA_HOME") && out.contains(empty.toString()), out);
    run("first-again-after-home", Map.of());
    assertEquals(first.keySet(), archives().keySet());
  }

  /**
   * Where the jar is missing, the launcher builds it only once it has a JVM: a wrong {@code
   * JAVA_HOME} is refused first, not after minutes of a build (here a stand-in {@code build.sh}
   * that notes it ran).
   */
  @Test
  void aWrongJavaHomeIsRefusedBeforeTheJarIsBuilt() throws Exception {
    Path bare = dir.resolve("no-jar");
    Files.createDirectories(bare.resolve("scripts"));
    Path script = bare.resolve("scripts/tilebeam");
    Files.copy(ROOT.resolve("scripts/tilebeam"), script);
    Files.copy(ROOT.resolve("scripts/jvm-archive.sh"), bare.resolve("scripts/jvm-archive.sh"));
    Path built = dir.resolve("no-jar-built");
    Path build = bare.resolve("scripts/build.sh");
    Files.writeString(build, "#!/usr/bin/env bash\necho >> " + built + "\nexit 3\n");
    assertTrue(build.toFile().setExecutable(true));
    Path empty = Files.createDirectories(dir.resolve("no-java-home-build"));
    String out = withJavaHome(empty, script.toString(), "run", "--job", "unused.yaml");
    assertTrue(out.startsWith("exit 2\n"), out);
    assertTrue(out.contains("JAVA_HOME") && out.contains(empty.toString()), out);
    assertFalse(Files.exists(built), "no build before the JVM is found: " + out);
    // With a JVM, the missing jar is built (the stand-in fails, and so does the launcher).
    Path home = dir.resolve("java-home-build");
    javaWrapper(home.resolve("bin"), dir.resolve("java-home-build-ran"));
    String withJvm = withJavaHome(home, script.toString(), "run", "--job", "unused.yaml");
    assertTrue(withJvm.startsWith("exit 3\n"), withJvm);
    assertTrue(Files.exists(built), withJvm);
  }

  /**
   * The session cluster's script picks its JVM as the launcher does, but only to start one:
   * stopping a cluster runs no JVM, so a wrong {@code JAVA_HOME} does not keep one running.
   */
  @Test
  void flinkSessionNeedsAJvmOnlyToStart() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("no-java-home-flink"));
    Path cluster = Files.createDirectories(dir.resolve("cluster"));
    String script = ROOT.resolve("scripts/flink-session.sh").toString();
    String stop = withJavaHome(empty, script, "stop", cluster.toString());
    assertTrue(stop.startsWith("exit 0\n"), stop);
    String start = withJavaHome(empty, script, "start", cluster.toString());
    assertTrue(start.startsWith("exit 2\n"), start);
    assertTrue(start.contains("JAVA_HOME") && start.contains(empty.toString()), start);
  }

  /** Runs {@code command} with {@code JAVA_HOME} set to {@code home}: "exit N", then its output. */
  private static String withJavaHome(Path home, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(List.of(command)).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", home.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(1, TimeUnit.MINUTES), "finished: " + out);
    return "exit " + p.exitValue() + "\n" + out;
  }
}
