package io.tilebeam.io.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Brings the ledger's schema to the version this code needs, with versioned Flyway migrations. */
public final class LedgerSchema {

  private static final Logger LOG = LoggerFactory.getLogger(LedgerSchema.class);

  /**
   * The newest migration this code ships ({@code db/migration/V<n>__*.sql}); a test keeps the two
   * in step. A ledger already at this version needs no Flyway scan, which costs half a second.
   */
  static final int CURRENT_VERSION = 5;

  private LedgerSchema() {}

  /** A ledger migrated by a newer tilebeam would be misread by this one: refuse it, clearly. */
  private static void refuseNewerSchema(Flyway flyway, LedgerConfig config) {
    MigrationInfo[] all = flyway.info().all();
    String newest = null;
    String known = null;
    for (MigrationInfo m : all) {
      if (m.getState() == MigrationState.FUTURE_SUCCESS) {
        newest = m.getVersion().toString();
      } else if (m.getVersion() != null) {
        known = m.getVersion().toString();
      }
    }
    if (newest != null) {
      throw new LedgerUnavailableException(
          "the ledger at "
              + config.maskedUrl()
              + " (schema "
              + config.schema()
              + ") has schema version "
              + newest
              + ", newer than this tilebeam knows ("
              + known
              + "); run a tilebeam at least as new as the one that migrated it",
          null);
    }
  }

  /**
   * The highest migration applied with success in {@code schema}, or -1 when it has none (or no
   * history table yet). Read-only.
   */
  static int installedVersion(Connection c, String schema) throws SQLException {
    // The schema is a plain identifier (LedgerConfig checks it), so it can be spliced in.
    String history = schema + ".flyway_schema_history";
    try (PreparedStatement exists = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      exists.setString(1, history);
      try (ResultSet rs = exists.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return -1;
        }
      }
    }
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT max(version::int) FROM "
                    + history
                    + " WHERE success AND version ~ '^[0-9]+$'")) {
      rs.next();
      int v = rs.getInt(1);
      return rs.wasNull() ? -1 : v;
    }
  }

  /**
   * Applies pending migrations. A schema newer than this code is refused.
   *
   * @throws LedgerUnavailableException when the ledger cannot be reached or migrated
   */
  public static void migrate(LedgerConfig config) {
    // Reach the server first: the driver's own message is clearer than Flyway's report of it.
    try (Connection c = config.open()) {
      if (installedVersion(c, config.schema()) == CURRENT_VERSION) {
        return;
      }
    } catch (SQLException e) {
      throw new LedgerUnavailableException(
          "the ledger at " + config.maskedUrl() + " does not answer: " + e.getMessage(), e);
    }
    try {
      Flyway flyway =
          Flyway.configure(LedgerSchema.class.getClassLoader())
              .dataSource(config.jdbcUrl(), config.user(), config.password())
              .schemas(config.schema())
              .defaultSchema(config.schema())
              .createSchemas(true)
              .locations("classpath:db/migration")
              .ignoreMigrationPatterns("*:missing")
              .validateOnMigrate(true)
              .load();
      refuseNewerSchema(flyway, config);
      MigrateResult result = flyway.migrate();
      if (result.migrationsExecuted > 0) {
        LOG.info(
            "Ledger schema {} migrated to version {}", config.schema(), result.targetSchemaVersion);
      }
    } catch (FlywayException e) {
      throw new LedgerUnavailableException(
          "ledger " + config.maskedUrl() + " (schema " + config.schema() + "): " + e.getMessage(),
          e);
    }
  }
}
