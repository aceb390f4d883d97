package io.tilebeam.io.ledger;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * A ledger connection whose statements are retried in place when they fail for a reason that
 * passes: a broken or refused connection (SQLSTATE class 08), a serialization failure or deadlock,
 * an administrator's shutdown, too many connections. A broken connection is replaced before the
 * retry. Every ledger statement of the graph is safe to repeat: a claim re-enters the run's own
 * claims, and completing or failing a tile twice changes nothing.
 *
 * <p>The connection is not checked before use (a round trip per bundle, and the DirectRunner's
 * bundles of a stateful step are small): a connection that died while idle fails its next
 * statement, which is retried on a new one.
 */
public final class RetryingLedger implements AutoCloseable {

  /** A statement against the ledger. */
  public interface Statement<T> {
    /** Runs it. */
    T run(Ledger ledger) throws SQLException;
  }

  private final Supplier<Ledger> opener;
  private final Retrier retrier;
  private final LedgerConfig config;
  private Ledger ledger;

  /** A ledger opened (and reopened) by {@code opener}, retried under {@code retrier}. */
  public RetryingLedger(Supplier<Ledger> opener, Retrier retrier) {
    this(opener, retrier, null);
  }

  private RetryingLedger(Supplier<Ledger> opener, Retrier retrier, LedgerConfig config) {
    this.opener = opener;
    this.retrier = retrier;
    this.config = config;
  }

  /**
   * The ledger {@code config} names, retried under {@code policy} with real waits; a failed
   * statement's message names the ledger and, for a timeout, which one ran out.
   */
  public static RetryingLedger open(LedgerConfig config, RetryPolicy policy) {
    return new RetryingLedger(
        () -> Ledger.open(config), Retrier.of(policy, PgConnections::passes), config);
  }

  /**
   * The statement's result, retrying failures that pass.
   *
   * @throws SQLException the last failure, when it does not pass or the retries are spent
   */
  public <T> T call(String what, Statement<T> statement) throws SQLException {
    return retrier.call(
        what,
        () -> {
          try {
            return statement.run(ledger());
          } catch (SQLException e) {
            // A lost or silent connection is told in words, with the ledger's URL.
            throw config != null && PgConnections.connectionFailed(e) ? config.explain(e) : e;
          }
        },
        // Whatever broke, a fresh connection costs little next to a retry on a dead one.
        e -> closeQuietly());
  }

  private Ledger ledger() {
    if (ledger == null) {
      ledger = opener.get();
    }
    return ledger;
  }

  private void closeQuietly() {
    if (ledger != null) {
      try {
        ledger.close();
      } catch (RuntimeException ignored) {
        // The connection is already broken.
      }
      ledger = null;
    }
  }

  @Override
  public void close() {
    closeQuietly();
  }
}
