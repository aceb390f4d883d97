package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.postgres.StuckServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command that talks to PostgreSQL ends, with default settings, within the minute the README
 * promises, when the server accepts connections and never answers, or hangs up on every one: the
 * ledger given by {@code --ledger} for {@code run}, {@code plan}, {@code status}, {@code verify}
 * and {@code reap}, and a PostGIS source and a PostGIS output for {@code run}. The message names
 * the URL, password masked, and what went wrong; nothing is written.
 */
class UnansweringServerIT {

  /** The README's bound for a server that does not answer, with default settings. */
  private static final Duration BOUND = Duration.ofSeconds(60);

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} against a server that is {1}")
  @CsvSource({
    "run, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "plan, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "status, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "verify, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "reap, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "run-postgis-output, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "run-postgis-source, SILENT, no log-in within the login timeout of 10 s (loginTimeout)",
    "run, HANG_UP, the server closed the connection",
    "plan, HANG_UP, the server closed the connection",
    "status, HANG_UP, the server closed the connection",
    "verify, HANG_UP, the server closed the connection",
    "reap, HANG_UP, the server closed the connection",
    "run-postgis-output, HANG_UP, the server closed the connection",
    "run-postgis-source, HANG_UP, the server closed the connection"
  })
  void endsInBoundedTimeNamingTheUrlAndWhatFailed(
      String command, StuckServer.Mode mode, String what) throws IOException {
    try (StuckServer server = new StuckServer(mode)) {
      List<String> args = new ArrayList<>();
      if (command.equals("run-postgis-output")) {
        args.addAll(List.of("run", "--job", postgisJob(server.jdbcUrl()).toString()));
      } else if (command.equals("run-postgis-source")) {
        args.addAll(List.of("run", "--job", postgisSourceJob(server.jdbcUrl()).toString()));
      } else {
        args.add(command);
        if (!command.equals("status") && !command.equals("reap")) {
          args.addAll(List.of("--job", TestJobs.sample(dir).toString()));
        }
        args.addAll(List.of("--ledger", server.jdbcUrl()));
      }
      args.addAll(List.of("--home", dir.resolve("home").toString()));

      TestJobs.Result r =
          assertTimeoutPreemptively(BOUND, () -> TestJobs.execute(args.toArray(String[]::new)));

      assertEquals(ExitCode.ERROR, r.code(), r.err());
      assertTrue(r.err().contains(server.maskedUrl()), r.err());
      assertTrue(r.err().contains(what), r.err());
      assertFalse(r.err().contains("s3cr3t"), r.err());
      assertFalse(Files.exists(dir.resolve("out")), "output was written");
    }
  }

  /** Zoom 0 of a PostGIS table at {@code url}, into a directory. */
  private Path postgisSourceJob(String url) throws IOException {
    Path job = dir.resolve("postgis-source.yaml");
    Files.writeString(
        job,
        "namespace: stuck\nlayers:\n  - name: islands\n    source: {uri: '"
            + url
            + "', format: postgis, table: public.islands, version: '1'}\n"
            + "    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 0]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: '"
            + dir.resolve("out")
            + "', format: flatgeobuf}\n");
    return job;
  }

  /** The sample's islands at zoom 0, into a PostGIS table at {@code url}. */
  private Path postgisJob(String url) throws IOException {
    Path job = dir.resolve("postgis.yaml");
    Files.writeString(
        job,
        "namespace: stuck\nlayers:\n  - name: islands\n    source: {uri: '"
            + TestJobs.SAMPLE_SOURCE
            + "', format: geojson}\n    extents: [{bbox: [-180, -85, 180, 85]}]\n"
            + "    tileMatrixSet: WebMercatorQuad\n    zooms: [0, 0]\n    targetCrs: EPSG:3857\n"
            + "    output: {uri: '"
            + url
            + "', format: postgis, table: public.islands}\n");
    return job;
  }
}
