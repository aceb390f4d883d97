package io.tilebeam.io.sink;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL with PostGIS for tests: Debian's {@code postgresql-15-postgis-3} binaries
 * (installed by {@code scripts/setup.sh}), a cluster made with {@code initdb} in a temporary
 * directory and started with {@code pg_ctl} on a free loopback port — as the {@code postgres} user
 * when the tests run as root, since PostgreSQL refuses to run as root. One cluster serves the JVM
 * and is stopped and removed when it exits. {@code TILEBEAM_POSTGIS_URL} names a server to use
 * instead (it must have the extension available).
 */
public final class PostGisCluster {

  private static final String BIN = "/usr/lib/postgresql/15/bin/";
  private static final Path CONTROL = Path.of("/usr/share/postgresql/15/extension/postgis.control");
  private static String url;

  private PostGisCluster() {}

  /** The JDBC URL of a database with the PostGIS extension created, starting the cluster once. */
  public static synchronized String url() {
    if (url == null) {
      String given = System.getenv("TILEBEAM_POSTGIS_URL");
      try {
        url = given != null ? given : start();
        try (Connection c = DriverManager.getConnection(url);
            Statement s = c.createStatement()) {
          s.execute("CREATE EXTENSION IF NOT EXISTS postgis");
        }
      } catch (IOException | SQLException e) {
        throw new IllegalStateException("cannot start the PostGIS test cluster: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return url;
  }

  /** A fresh schema in the database, for one test class. */
  public static String newSchema(String prefix) throws SQLException {
    String schema = prefix + "_" + Long.toHexString(System.nanoTime());
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    }
    return schema;
  }

  private static String start() throws IOException, InterruptedException {
    if (!Files.isExecutable(Path.of(BIN + "initdb")) || !Files.isRegularFile(CONTROL)) {
      throw new IOException(
          "PostgreSQL 15 with PostGIS 3 is not installed; scripts/setup.sh installs it"
              + " (postgresql-15-postgis-3)");
    }
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("tilebeam-postgis-");
    Path data = dir.resolve("data");
    if (root) {
      run(List.of("chown", "postgres:postgres", dir.toString()));
    }
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    run(
        asPostgres(
            root,
            List.of(
                BIN + "initdb",
                "-D",
                data.toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C")));
    run(
        asPostgres(
            root,
            List.of(
                BIN + "pg_ctl",
                "-D",
                data.toString(),
                "-l",
                dir.resolve("server.log").toString(),
                "-w",
                "-o",
                "-p "
                    + port
                    + " -c listen_addresses=127.0.0.1 -c unix_socket_directories="
                    + dir
                    + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                "start")));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    run(
                        asPostgres(
                            root,
                            List.of(
                                BIN + "pg_ctl", "-D", data.toString(), "-m", "immediate", "stop")));
                    try (Stream<Path> all = Files.walk(dir)) {
                      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    }
                  } catch (IOException | InterruptedException e) {
                    System.err.println("stopping the PostGIS test cluster: " + e);
                  }
                }));
    String admin = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    try (Connection c = DriverManager.getConnection(admin);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE tilebeam");
    } catch (SQLException e) {
      throw new IOException("creating the test database failed: " + e.getMessage(), e);
    }
    return "jdbc:postgresql://127.0.0.1:" + port + "/tilebeam?user=postgres";
  }

  private static List<String> asPostgres(boolean root, List<String> command) {
    if (!root) {
      return command;
    }
    List<String> out = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    out.addAll(command);
    return out;
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + new String(output));
    }
  }
}
