package io.tilebeam.io.postgres;

import java.io.Serializable;
import java.time.Duration;
import java.util.Properties;

/**
 * How long a PostgreSQL connection may wait for its server before it fails: to open the TCP
 * connection ({@code connectTimeout}), to log in ({@code loginTimeout}: from the first packet to
 * the server's "ready", where a server that accepts and then says nothing would hold the thread for
 * ever), for any answer once logged in ({@code socketTimeout}), and for a lock ({@code
 * lock_timeout}, server side). Parameters of the same names in a JDBC URL's query win over these,
 * so a user can lengthen one for a slow network without a new release.
 *
 * @param connect the TCP connect timeout
 * @param login the whole log-in, the TCP connect included
 * @param socket the longest silence of the server once logged in; zero for none
 * @param lock the longest wait of one statement for a lock; zero for none
 */
public record PgTimeouts(Duration connect, Duration login, Duration socket, Duration lock)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * The ledger's: its statements are batches of point look-ups and small updates, so a minute
   * without an answer means a dead server or network, not a slow statement.
   */
  public static final PgTimeouts LEDGER =
      new PgTimeouts(
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          Duration.ofSeconds(60),
          Duration.ofSeconds(30));

  /**
   * PostGIS sources and outputs: a spatial query over a large table may compute for minutes before
   * its first row, so the socket waits five; a tile's writers queue on its lock for a minute at
   * most.
   */
  public static final PgTimeouts DATA =
      new PgTimeouts(
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          Duration.ofMinutes(5),
          Duration.ofSeconds(60));

  /** Checks every field: whole seconds (the driver's unit), login no shorter than connect. */
  public PgTimeouts {
    for (Duration d : new Duration[] {connect, login, socket, lock}) {
      if (d == null || d.isNegative() || d.toMillis() % 1000 != 0) {
        throw new IllegalArgumentException("timeouts are whole seconds >= 0, was " + d);
      }
    }
    if (connect.isZero() || login.compareTo(connect) < 0) {
      throw new IllegalArgumentException(
          "need 0 < connect <= login, were " + connect + " and " + login);
    }
  }

  /** Sets the driver's timeout properties on {@code props} (the URL's own still win). */
  public void applyTo(Properties props) {
    props.setProperty("connectTimeout", Long.toString(connect.toSeconds()));
    props.setProperty("loginTimeout", Long.toString(login.toSeconds()));
    props.setProperty("socketTimeout", Long.toString(socket.toSeconds()));
  }
}
