package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.LedgerConfig;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** The ledger a command uses: the one given by {@code --ledger}, or the embedded one. */
final class LedgerHandle implements AutoCloseable {

  private final LedgerConfig config;
  private final EmbeddedLedger embedded;

  private LedgerHandle(LedgerConfig config, EmbeddedLedger embedded) {
    this.config = config;
    this.embedded = embedded;
  }

  /** Opens the ledger, starting the embedded server in {@code home} when no URL is given. */
  static LedgerHandle open(String jdbcUrl, Path home) {
    if (jdbcUrl != null) {
      try {
        return new LedgerHandle(LedgerConfig.of(jdbcUrl), null);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--ledger: " + e.getMessage());
      }
    }
    EmbeddedLedger e = EmbeddedLedger.start(home);
    return new LedgerHandle(e.config(), e);
  }

  /**
   * Starts an existing embedded ledger on another thread, so that its start-up overlaps the job's
   * resolution (mostly the CRS database's start-up); a rerun's time is mostly start-ups. A new
   * embedded ledger, or one given by URL, is opened only when {@link Opening#get} asks: a bad job
   * must leave nothing behind.
   */
  static Opening openEarly(String jdbcUrl, Path home) {
    if (jdbcUrl != null || !EmbeddedLedger.exists(home)) {
      return new Opening(jdbcUrl, home, null);
    }
    return new Opening(
        jdbcUrl, home, Background.start("tilebeam-ledger-start", () -> open(null, home)));
  }

  /** A ledger that may already be starting. */
  static final class Opening implements AutoCloseable {
    private final String jdbcUrl;
    private final Path home;
    private final CompletableFuture<LedgerHandle> started;
    private boolean taken;

    private Opening(String jdbcUrl, Path home, CompletableFuture<LedgerHandle> started) {
      this.jdbcUrl = jdbcUrl;
      this.home = home;
      this.started = started;
    }

    /** The open ledger; the caller closes it. */
    LedgerHandle get() {
      taken = true;
      if (started == null) {
        return open(jdbcUrl, home);
      }
      return Background.join(started);
    }

    /** Stops a ledger started early that nobody took, for example after a bad job. */
    @Override
    public void close() {
      if (started != null && !taken) {
        try {
          started.join().close();
        } catch (RuntimeException e) {
          // It never started: nothing to stop, and the job's own error is the one to report.
        }
      }
    }
  }

  /** Whether a ledger exists to be read without creating one. */
  static boolean exists(String jdbcUrl, Path home) {
    return jdbcUrl != null || EmbeddedLedger.exists(home);
  }

  LedgerConfig config() {
    return config;
  }

  /** Whether this is the embedded ledger, which one process holds at a time. */
  boolean isEmbedded() {
    return embedded != null;
  }

  @Override
  public void close() {
    if (embedded != null) {
      embedded.close();
    }
  }
}
