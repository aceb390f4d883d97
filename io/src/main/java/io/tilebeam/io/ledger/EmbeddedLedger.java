package io.tilebeam.io.ledger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default ledger: a real PostgreSQL server (embedded binaries) whose data directory lives in
 * {@code <home>/ledger}, so a second run sees the first. The server runs while this object is open
 * and listens on loopback only.
 *
 * <p>One process at a time owns the directory (a file lock); concurrent runs share a ledger through
 * {@code --ledger} and a PostgreSQL server instead. A server whose process dies without closing it
 * is stopped by a {@link ServerWatchdog}; one left behind all the same (no shell to watch it) is
 * shut down by the next start and restarted on the same data.
 */
public final class EmbeddedLedger implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedLedger.class);

  private final EmbeddedPostgres postgres;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private final Optional<ServerWatchdog> watchdog;

  private EmbeddedLedger(
      EmbeddedPostgres postgres,
      FileChannel lockChannel,
      FileLock lock,
      Optional<ServerWatchdog> watchdog) {
    this.postgres = postgres;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.watchdog = watchdog;
  }

  /** Whether an embedded ledger has been created in {@code home}. */
  public static boolean exists(Path home) {
    return Files.isRegularFile(home.resolve("ledger").resolve("PG_VERSION"));
  }

  /**
   * Starts the server on the data in {@code home}, creating it on first use.
   *
   * @throws LedgerUnavailableException when the directory is in use or the server cannot start
   */
  public static EmbeddedLedger start(Path home) {
    FileChannel channel = null;
    try {
      Files.createDirectories(home);
      channel =
          FileChannel.open(
              home.resolve("ledger.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        throw new LedgerUnavailableException(
            "the embedded ledger in "
                + home.toAbsolutePath()
                + " is in use by another tilebeam"
                + " process; give concurrent runs a shared PostgreSQL with --ledger",
            null);
      }
      Path data = home.resolve("ledger");
      stopLeftoverServer(data);
      LOG.info("Starting the embedded ledger in {}", data.toAbsolutePath());
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
      binariesDirectory().ifPresent(builder::setOverrideWorkingDirectory);
      EmbeddedPostgres pg =
          builder
              .setDataDirectory(data)
              .setCleanDataDirectory(false)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("fsync", "on")
              .setPGStartupWait(Duration.ofSeconds(60))
              .setOutputRedirector(ProcessBuilder.Redirect.DISCARD)
              .start();
      Optional<ServerWatchdog> watchdog =
          serverPid(data).flatMap(pid -> ServerWatchdog.start(pid, data));
      return new EmbeddedLedger(pg, channel, lock, watchdog);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new LedgerUnavailableException(
          "cannot start the embedded ledger in " + home.toAbsolutePath() + ": " + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /**
   * Where the server's binaries are unpacked: beside tilebeam's jar, once per jar, when it runs
   * from one in a writable directory. Otherwise the library unpacks them under {@code
   * java.io.tmpdir}, and a run that points that at fresh scratch space (for the runner's spills)
   * would inflate the binaries again: seconds of XZ decoding on every start.
   */
  private static Optional<java.io.File> binariesDirectory() {
    try {
      java.security.CodeSource source = EmbeddedLedger.class.getProtectionDomain().getCodeSource();
      // No location either from a JDK 25 AOT cache, which loads the class from the cache.
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path jar = Path.of(source.getLocation().toURI());
      Path dir = jar.getParent();
      if (!Files.isRegularFile(jar) || dir == null || !Files.isWritable(dir)) {
        return Optional.empty();
      }
      return Optional.of(dir.toFile());
    } catch (java.net.URISyntaxException | IllegalArgumentException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** The ledger's connection settings, in the default schema. */
  public LedgerConfig config() {
    return new LedgerConfig(
        postgres.getJdbcUrl("postgres", "postgres"), null, null, LedgerConfig.DEFAULT_SCHEMA);
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }

  /**
   * A process killed with SIGKILL leaves its server running; with the lock ours, no live tilebeam
   * uses it, so ask it to shut down (SIGTERM is PostgreSQL's smart shutdown) and wait.
   */
  private static void stopLeftoverServer(Path data) throws IOException {
    Optional<Long> pid = serverPid(data);
    if (pid.isEmpty()) {
      return;
    }
    Optional<ProcessHandle> server = ProcessHandle.of(pid.get());
    if (server.isPresent() && server.get().isAlive()) {
      LOG.warn("Stopping the ledger server (pid {}) a killed run left behind", pid.get());
      server.get().destroy();
      try {
        server.get().onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the old ledger server stopped", e);
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        throw new IOException("the old ledger server (pid " + pid.get() + ") did not stop", e);
      }
    }
  }

  private static Optional<Long> serverPid(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
    try {
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // Closing releases the lock; there is nothing more to do if it fails.
      }
    }
  }

  /** The watchdog of the server, for tests. */
  Optional<ProcessHandle> watchdog() {
    return watchdog.map(ServerWatchdog::handle);
  }

  /** Stops the server and releases the directory. */
  @Override
  public void close() {
    // The watchdog first: it must not stop the server while it shuts down here.
    watchdog.ifPresent(ServerWatchdog::close);
    try {
      postgres.close();
    } catch (IOException e) {
      LOG.warn("The embedded ledger did not stop cleanly: {}", e.getMessage());
    } finally {
      try {
        lock.release();
      } catch (IOException e) {
        // The channel close below releases it as well.
      }
      closeQuietly(lockChannel);
    }
  }
}
