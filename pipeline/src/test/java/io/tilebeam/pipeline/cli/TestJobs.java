package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.DeadLetters;
import io.tilebeam.io.sink.LocalTileSink;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.pipeline.preview.PreviewFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The sample job and the command line, for tests that run them in a temporary directory. */
public final class TestJobs {

  /** The sample source, by absolute path (tests run in the module directory). */
  public static final String SAMPLE_SOURCE =
      Path.of("../src/samples/islands.geojson").toAbsolutePath().toString();

  /** The sample job's raster source. */
  public static final String SAMPLE_RASTER =
      Path.of("../src/samples/terrain.tif").toAbsolutePath().toString();

  private TestJobs() {}

  /** Where the sample job's raster layer begins: the vector sample is what comes before it. */
  private static final String RASTER_LAYER = "  # A terrain model";

  /**
   * Writes the sample job's vector layers (islands, pacific, vector) into {@code dir}, publishing
   * into {@code dir/out}; returns its path. Most tests take this part, whose counts and goldens
   * they pin; {@link #fullSample} has the raster layer too.
   */
  public static Path sample(Path dir) throws IOException {
    String full = fullSampleText(dir);
    int raster = full.indexOf(RASTER_LAYER);
    if (raster < 0) {
      throw new IllegalStateException("the sample job no longer has its raster layer comment");
    }
    Path file = dir.resolve("job.yaml");
    Files.writeString(file, full.substring(0, raster));
    return file;
  }

  /** Writes the whole sample job, its raster layer included, into {@code dir}; returns its path. */
  public static Path fullSample(Path dir) throws IOException {
    Path file = dir.resolve("job.yaml");
    Files.writeString(file, fullSampleText(dir));
    return file;
  }

  private static String fullSampleText(Path dir) throws IOException {
    return Files.readString(Path.of("../src/samples/sample-job.yaml"))
        .replace("src/samples/islands.geojson", SAMPLE_SOURCE)
        .replace("src/samples/terrain.tif", SAMPLE_RASTER)
        .replace("uri: out/", "uri: " + dir.resolve("out"));
  }

  /**
   * Writes the sample job into {@code dir} with every layer published to {@code outputUri} instead
   * of a directory; returns its path.
   */
  public static Path sampleTo(Path dir, String outputUri) throws IOException {
    Path file = sample(dir);
    Files.writeString(
        file, Files.readString(file).replace("uri: " + dir.resolve("out"), "uri: " + outputUri));
    return file;
  }

  /**
   * A one-layer job of the sample's islands at zooms 0-3 over western Europe, to a FlatGeobuf
   * directory, fourteen lines long (tests refer to its lines):
   *
   * <pre>
   *  1 namespace   5 source.uri     9 tileMatrixSet  13 output.uri
   *  3 - name      6 source.format 10 zooms          14 output.format
   *  4 source:     8 - bbox        11 targetCrs
   * </pre>
   */
  public static String islandsJob(String outputUri) {
    return String.join(
        "\n",
        "namespace: islands-job",
        "layers:",
        "  - name: islands",
        "    source:",
        "      uri: " + SAMPLE_SOURCE,
        "      format: geojson",
        "    extents:",
        "      - bbox: [-10, 40, 10, 60]",
        "    tileMatrixSet: WebMercatorQuad",
        "    zooms: [0, 3]",
        "    targetCrs: EPSG:3857",
        "    output:",
        "      uri: " + outputUri,
        "      format: flatgeobuf",
        "");
  }

  /** Runs {@code plan} on a job with the ledger home in {@code dir/home}, tiles into a file. */
  public static Result plan(Path job, Path dir, Path tilesOut) {
    return execute(
        "plan",
        "--job",
        job.toString(),
        "--home",
        dir.resolve("home").toString(),
        "--tiles-out",
        tilesOut.toString());
  }

  /**
   * Runs {@code run --report REPORT} with {@code args} in this JVM, asserts exit status 0, and
   * returns the report.
   */
  public static JsonNode runReporting(Path report, String... args) throws IOException {
    Files.deleteIfExists(report);
    String[] all = new String[args.length + 3];
    all[0] = "run";
    all[1] = "--report";
    all[2] = report.toString();
    System.arraycopy(args, 0, all, 3, args.length);
    Result r = execute(all);
    assertEquals(ExitCode.OK, r.code(), r.err());
    return new ObjectMapper().readTree(report.toFile());
  }

  /**
   * Starts {@code tilebeam run --job JOB ARGS...} as a separate JVM on this classpath, its output
   * in {@code log}, with {@code env} added to its environment: a real process, for tests that kill
   * it.
   */
  public static Process startRun(Path job, Path log, Map<String, String> env, String... args)
      throws IOException {
    List<String> all = new ArrayList<>(List.of("run", "--job", job.toString()));
    all.addAll(List.of(args));
    return start(null, log, env, all.toArray(String[]::new));
  }

  /**
   * Starts {@code tilebeam ARGS...} as a separate JVM on this classpath in working directory {@code
   * workDir} (null: this one's), its output in {@code log}, with {@code env} added to its
   * environment.
   */
  public static Process start(Path workDir, Path log, Map<String, String> env, String... args)
      throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Tilebeam.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    if (workDir != null) {
      pb.directory(workDir.toFile());
    }
    pb.environment().putAll(env);
    return pb.start();
  }

  /**
   * The published tile files below an output directory, by relative name, and their checksums: not
   * hidden (temporary) files, not dead letters, not the map preview.
   */
  public static Map<String, String> publishedTiles(Path out) throws IOException {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> s = Files.walk(out)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = out.relativize(p).toString();
        if (!p.getFileName().toString().startsWith(".")
            && !name.startsWith(DeadLetters.FAILED_DIR)
            && !name.equals(PreviewFiles.PAGE)
            && !name.equals(PreviewFiles.CONFIG)
            && !name.startsWith(PreviewFiles.ASSETS + "/")) {
          files.put(name, Checksums.of(p));
        }
      }
    }
    return files;
  }

  /**
   * How many tiles are published below {@code out} while a run is writing there: a temporary file
   * can vanish between being listed and being read, and then the count is taken again.
   */
  public static int publishedCount(Path out) throws IOException {
    for (int tries = 0; ; tries++) {
      if (!Files.isDirectory(out)) {
        return 0;
      }
      try {
        return publishedTiles(out).size();
      } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
        if (tries > 100) {
          throw e;
        }
      }
    }
  }

  /** What a command printed and returned. */
  public record Result(int code, String out, String err) {}

  /** Runs the command line in this JVM. */
  public static Result execute(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Tilebeam.execute(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The temporary files under {@code out}: none should remain after {@code reap}. */
  static List<Path> temporaries(Path out) throws IOException {
    try (Stream<Path> s = Files.walk(out)) {
      return s.filter(p -> p.getFileName().toString().startsWith(LocalTileSink.TEMP_PREFIX))
          .toList();
    }
  }

  /**
   * Reads back every named tile under {@code out} with its format: a file at a final name is a
   * whole tile.
   *
   * @throws IOException when one does not parse back
   */
  static void checkWholeTiles(Path out, java.util.Collection<String> names) throws IOException {
    for (String name : names) {
      String ext = name.substring(name.lastIndexOf('.') + 1);
      TileFormat.forExtension(ext).countFeatures(Files.readAllBytes(out.resolve(name)));
    }
  }
}
