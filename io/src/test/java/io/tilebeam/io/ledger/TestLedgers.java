package io.tilebeam.io.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL for tests: one embedded server per test JVM (stopped at exit), and a fresh
 * schema per caller so test classes never see each other's rows.
 */
public final class TestLedgers {

  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static EmbeddedLedger server;

  private TestLedgers() {}

  /** A migrated, empty ledger schema named after {@code owner}. */
  public static synchronized LedgerConfig freshSchema(String owner) {
    if (server == null) {
      try {
        Path home = Files.createTempDirectory("tilebeam-test-ledger");
        server = EmbeddedLedger.start(home);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    String schema =
        (owner.replaceAll("[^A-Za-z0-9]", "_") + "_" + SCHEMAS.incrementAndGet())
            .toLowerCase(java.util.Locale.ROOT);
    LedgerConfig config = server.config().withSchema(schema);
    LedgerSchema.migrate(config);
    return config;
  }

  /** Drops a schema made by {@link #freshSchema}. */
  public static void drop(LedgerConfig config) {
    try (Connection c = config.connect();
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + config.schema() + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop test schema " + config.schema(), e);
    }
  }
}
