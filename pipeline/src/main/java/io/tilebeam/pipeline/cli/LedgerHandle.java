package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.LedgerConfig;
import java.nio.file.Path;

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
