package io.tilebeam.io.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.TestLedgers;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Connections that cannot wait for ever, against a real PostgreSQL and servers that do not answer:
 * each timeout is set, a URL's own setting wins, and a failure says which timeout ran out, names
 * the URL with its password masked, and stays retryable.
 */
class PgConnectionsTest {

  private static LedgerConfig ledger;

  @BeforeAll
  static void start() {
    ledger = TestLedgers.freshSchema("connections");
  }

  @AfterAll
  static void drop() {
    TestLedgers.drop(ledger);
  }

  @Test
  void aSilentServerFailsTheLogInWithinTheUrlsLoginTimeout() throws Exception {
    try (StuckServer server = new StuckServer(StuckServer.Mode.SILENT)) {
      String url = server.jdbcUrl() + "&loginTimeout=1&connectTimeout=1";
      SQLException e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(20),
              () ->
                  assertThrows(
                      SQLException.class,
                      () -> PgConnections.open(url, new Properties(), PgTimeouts.LEDGER)));
      assertTrue(e.getMessage().startsWith(server.maskedUrl()), e.getMessage());
      assertTrue(
          e.getMessage().contains("no log-in within the login timeout of 1 s (loginTimeout)"),
          e.getMessage());
      assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
      assertTrue(e.getSQLState().startsWith("08"), e.getSQLState());
      assertTrue(PgConnections.passes(e), "a silent server may come back: retried");
    }
  }

  @Test
  void aServerThatHangsUpIsSaidToHaveClosedTheConnection() throws Exception {
    try (StuckServer server = new StuckServer(StuckServer.Mode.HANG_UP)) {
      SQLException e =
          assertThrows(
              SQLException.class,
              () -> PgConnections.open(server.jdbcUrl(), new Properties(), PgTimeouts.DATA));
      assertEquals(
          server.maskedUrl()
              + ": the server closed the connection without an answer (is it PostgreSQL?)",
          e.getMessage());
      assertTrue(PgConnections.passes(e));
    }
  }

  @Test
  void everyTimeoutIsSetOnTheLedgersConnections() throws SQLException {
    try (Connection c = ledger.connect()) {
      assertEquals("30s", show(c, "lock_timeout"));
      assertEquals(60_000, c.getNetworkTimeout(), "socket timeout, ms");
    }
  }

  @Test
  void postGisConnectionsWaitLongerForAnswersAndLocks() throws SQLException {
    try (Connection c = PgConnections.openData(ledger.jdbcUrl())) {
      assertEquals("1min", show(c, "lock_timeout"));
      assertEquals(300_000, c.getNetworkTimeout(), "socket timeout, ms");
    }
  }

  @Test
  void aUrlsOwnSettingsWin() throws SQLException {
    LedgerConfig tuned =
        new LedgerConfig(
            withParams(ledger.jdbcUrl(), "socketTimeout=7&options=-c%20lock_timeout=2s"),
            ledger.user(),
            ledger.password(),
            ledger.schema());
    try (Connection c = tuned.connect()) {
      assertEquals("2s", show(c, "lock_timeout"));
      assertEquals(7_000, c.getNetworkTimeout());
    }
  }

  @Test
  void aStatementSlowerThanTheSocketTimeoutIsExplained() throws SQLException {
    LedgerConfig impatient =
        new LedgerConfig(
            withParams(ledger.jdbcUrl(), "socketTimeout=1"),
            ledger.user(),
            ledger.password(),
            ledger.schema());
    try (Connection c = impatient.connect();
        Statement s = c.createStatement()) {
      SQLException raw = assertThrows(SQLException.class, () -> s.execute("SELECT pg_sleep(5)"));
      SQLException e = impatient.explain(raw);
      assertEquals(
          PgConnections.mask(impatient.jdbcUrl())
              + ": the server did not answer within the socket timeout of 1 s (socketTimeout): a"
              + " dead server or network, or a statement slower than that",
          e.getMessage());
      assertTrue(PgConnections.passes(e));
    }
  }

  private static String show(Connection c, String setting) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW " + setting)) {
      r.next();
      return r.getString(1);
    }
  }

  private static String withParams(String url, String params) {
    return url + (url.contains("?") ? "&" : "?") + params;
  }
}
