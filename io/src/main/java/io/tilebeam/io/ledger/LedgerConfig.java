package io.tilebeam.io.ledger;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.postgres.PgTimeouts;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * How to reach the ledger: a PostgreSQL JDBC URL (credentials in it or given apart) and the schema
 * that holds the ledger's tables.
 */
public record LedgerConfig(String jdbcUrl, String user, String password, String schema)
    implements Serializable {

  /** The schema used when none is given. */
  public static final String DEFAULT_SCHEMA = "tilebeam";

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /** Checks the URL and the schema name. */
  public LedgerConfig {
    if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "ledger must be a jdbc:postgresql: URL, was '"
              + PgConnections.mask(String.valueOf(jdbcUrl))
              + "'");
    }
    if (schema == null || !IDENTIFIER.matcher(schema).matches()) {
      throw new IllegalArgumentException(
          "ledger schema '" + schema + "' is not a plain identifier");
    }
    if (schema.startsWith("pg_")) {
      // PostgreSQL refuses to create it, but only when the first run migrates the ledger.
      throw new IllegalArgumentException(
          "ledger schema '" + schema + "' starts with pg_, which PostgreSQL keeps for itself");
    }
  }

  /** A config for a URL, in the default schema. */
  public static LedgerConfig of(String jdbcUrl) {
    return new LedgerConfig(jdbcUrl, null, null, DEFAULT_SCHEMA);
  }

  /** The same ledger in another schema. */
  public LedgerConfig withSchema(String other) {
    return new LedgerConfig(jdbcUrl, user, password, other);
  }

  /** The URL with any password replaced by {@code ***}, for messages and logs. */
  public String maskedUrl() {
    return PgConnections.mask(jdbcUrl);
  }

  /**
   * Opens a connection with the ledger schema as its search path, bounded by the ledger's timeouts
   * ({@link PgTimeouts#LEDGER}).
   *
   * @throws SQLException when the server cannot be reached, explained ({@link PgConnections})
   */
  public Connection connect() throws SQLException {
    // The schema is a checked plain identifier: quoting it is enough.
    return PgConnections.open(
        jdbcUrl, properties(), PgTimeouts.LEDGER, "SET search_path TO \"" + schema + "\"");
  }

  /**
   * {@code e}, a failed statement on this ledger, with a message naming the ledger (masked) and,
   * for a timeout or a server that hung up, what happened ({@link PgConnections#explain}).
   */
  public SQLException explain(SQLException e) {
    Properties props = properties();
    PgTimeouts.LEDGER.applyTo(props);
    return PgConnections.explain(e, jdbcUrl, props);
  }

  private Properties properties() {
    Properties props = new Properties();
    if (user != null) {
      props.setProperty("user", user);
    }
    if (password != null) {
      props.setProperty("password", password);
    }
    props.setProperty("ApplicationName", "tilebeam");
    return props;
  }

  /**
   * Opens a connection, or fails with a message naming the (masked) URL and what failed.
   *
   * @throws LedgerUnavailableException when the server cannot be reached
   */
  public Connection open() {
    try {
      return connect();
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot reach the ledger at " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "LedgerConfig[" + maskedUrl() + ", schema=" + schema + "]";
  }
}
