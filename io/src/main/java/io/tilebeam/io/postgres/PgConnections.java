package io.tilebeam.io.postgres;

import java.io.EOFException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import org.postgresql.Driver;

/**
 * Opens PostgreSQL connections that cannot wait for ever ({@link PgTimeouts}), and explains their
 * failures: a timeout says which one and how long it was, a server that hung up says so, and every
 * message names the URL with its password masked. The explained failure keeps the driver's
 * SQLSTATE, so what was transient stays transient.
 *
 * <pre>{@code
 * Connection c = PgConnections.open(url, props, PgTimeouts.LEDGER);
 * }</pre>
 */
public final class PgConnections {

  /** SQLSTATEs, beside class 08, that a retry may clear. */
  private static final Set<String> TRANSIENT_STATES =
      Set.of("40001", "40P01", "57P01", "57P02", "57P03", "53300", "55P03");

  private static final Pattern PASSWORD_IN_URL =
      Pattern.compile("(?i)(password=)[^&]*|(//[^/:@]+:)[^@/]*(@)");

  private PgConnections() {}

  /** {@code url} with any password (query or user-info) replaced by {@code ***}. */
  public static String mask(String url) {
    return PASSWORD_IN_URL
        .matcher(url)
        .replaceAll(m -> m.group(1) != null ? m.group(1) + "***" : m.group(2) + "***" + m.group(3));
  }

  /**
   * A connection to {@code jdbcUrl} with {@code props} (user, password, application name, ...) and
   * the timeouts set, its lock timeout included, then {@code sessionSql} (settings such as {@code
   * SET search_path ...}) in the same round trip.
   *
   * @throws SQLException when the server cannot be reached or logged in to, explained
   */
  public static Connection open(
      String jdbcUrl, Properties props, PgTimeouts timeouts, String... sessionSql)
      throws SQLException {
    timeouts.applyTo(props);
    // A connection idle between bundles is checked by the kernel, not found dead at its next use.
    props.setProperty("tcpKeepAlive", "true");
    Connection c;
    try {
      c = DriverManager.getConnection(jdbcUrl, props);
    } catch (SQLException e) {
      throw explain(e, jdbcUrl, props, true);
    }
    StringBuilder session = new StringBuilder();
    if (!timeouts.lock().isZero() && !setsLockTimeout(effective(jdbcUrl, props))) {
      // Set for the session, not in the startup packet: poolers such as PgBouncer refuse startup
      // options they do not know.
      session.append("SET lock_timeout = '").append(timeouts.lock().toSeconds()).append("s'");
    }
    for (String sql : sessionSql) {
      session.append(session.length() > 0 ? "; " : "").append(sql);
    }
    if (session.length() > 0) {
      // One round trip for every setting: each is a message that a sick network may lose.
      try (Statement s = c.createStatement()) {
        s.execute(session.toString());
      } catch (SQLException e) {
        c.close();
        throw explain(e, jdbcUrl, props, true);
      }
    }
    return c;
  }

  /**
   * A connection to a PostGIS database, with the settings every use of it wants: bounded waits
   * ({@link PgTimeouts#DATA}), tilebeam's application name, batched inserts rewritten to multi-row
   * statements; then {@code sessionSql}, in the same round trip.
   *
   * @throws SQLException when the database cannot be reached, explained
   */
  public static Connection openData(String jdbcUrl, String... sessionSql) throws SQLException {
    Properties props = new Properties();
    props.setProperty("ApplicationName", "tilebeam");
    props.setProperty("reWriteBatchedInserts", "true");
    return PgConnections.open(jdbcUrl, props, PgTimeouts.DATA, sessionSql);
  }

  /**
   * {@code e}, a failure of a statement on a connection to {@code jdbcUrl}, with a message that
   * names the (masked) URL and, for a timeout or a server that hung up, what happened in words and
   * which setting bounded it; the SQLSTATE and cause are kept. {@code props} are the connection's
   * properties (the URL's own parameters win over them).
   */
  public static Explained explain(SQLException e, String jdbcUrl, Properties props) {
    return explain(e, jdbcUrl, props, false);
  }

  private static Explained explain(
      SQLException e, String jdbcUrl, Properties props, boolean loggingIn) {
    if (e instanceof Explained done) {
      return done;
    }
    String what = what(e, effective(jdbcUrl, props), loggingIn);
    return new Explained(mask(jdbcUrl) + ": " + what, e);
  }

  /**
   * Whether a failure may pass on a retry: an {@link SQLException} with a passing SQLSTATE, itself
   * or as the cause of another exception (a database that cannot be reached, a migration tool's
   * wrapper). A database that cannot be reached at all is one: the server may be restarting.
   */
  public static boolean passes(Exception e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState();
        // Set.of(...) refuses to look null up: a state-less failure is checked before it is.
        if (connectionFailed(sql) || (state != null && TRANSIENT_STATES.contains(state))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether {@code e} is the connection's failure (SQLSTATE class 08: refused, lost, timed out),
   * not the statement's: the server may come back, so it is no fault of the job or the data.
   */
  public static boolean connectionFailed(SQLException e) {
    return e.getSQLState() != null && e.getSQLState().startsWith("08");
  }

  /** Whether the URL sets its own lock timeout ({@code options=-c lock_timeout=...}). */
  private static boolean setsLockTimeout(Properties settings) {
    return settings.getProperty("options", "").contains("lock_timeout");
  }

  private static String what(SQLException e, Properties settings, boolean loggingIn) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException timeout) {
        String m = String.valueOf(timeout.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("connect")) {
          return "no TCP connection within the connect timeout of "
              + seconds(settings, "connectTimeout")
              + ": the host drops packets or is unreachable";
        }
        if (loggingIn) {
          return silentLogIn(settings);
        }
        return "the server did not answer within the socket timeout of "
            + seconds(settings, "socketTimeout")
            + ": a dead server or network, or a statement slower than that";
      }
      if (t instanceof EOFException) {
        return "the server closed the connection without an answer (is it PostgreSQL?)";
      }
    }
    String message = String.valueOf(e.getMessage());
    if (loggingIn && message.startsWith("Connection attempt timed out")) {
      return silentLogIn(settings);
    }
    return message;
  }

  /**
   * The driver reads the answer to its first packet (the TLS offer) within the connect timeout and
   * the whole log-in within the login timeout: whichever ran out, the server said nothing.
   */
  private static String silentLogIn(Properties settings) {
    return "no log-in within the login timeout of "
        + seconds(settings, "loginTimeout")
        + ": the server accepted the connection and did not answer (overloaded, stuck, or not"
        + " PostgreSQL)";
  }

  /**
   * A failure whose message already says what went wrong and where: whoever reports it need not add
   * the driver's messages beneath it.
   */
  public static final class Explained extends SQLException {
    private static final long serialVersionUID = 1L;

    Explained(String message, SQLException cause) {
      super(message, cause.getSQLState(), cause.getErrorCode(), cause);
    }
  }

  /** The properties in effect: the URL's parameters over {@code props}. */
  private static Properties effective(String jdbcUrl, Properties props) {
    Properties parsed = Driver.parseURL(jdbcUrl, props);
    return parsed != null ? parsed : props;
  }

  private static String seconds(Properties settings, String name) {
    return settings.getProperty(name, "?") + " s (" + name + ")";
  }
}
