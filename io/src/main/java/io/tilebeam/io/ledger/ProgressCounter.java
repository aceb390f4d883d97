package io.tilebeam.io.ledger;

import io.tilebeam.io.retry.RetryPolicy;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds a run's progress to the ledger a batch at a time ({@link Ledger#addProgress}), for the
 * launcher's progress lines and {@code tilebeam status}. Best effort: progress that cannot be
 * recorded is logged and dropped, and never fails the work it counts.
 */
public final class ProgressCounter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProgressCounter.class);

  // Progress is not worth waiting long for: a few quick retries, then the count is dropped.
  private static final RetryPolicy POLICY =
      new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1));

  private final String runId;
  private final RetryingLedger ledger;
  private final boolean own;
  private boolean warned;

  private ProgressCounter(String runId, RetryingLedger ledger, boolean own) {
    this.runId = runId;
    this.ledger = ledger;
    this.own = own;
  }

  /** A counter with a connection of its own, opened at the first count. */
  public static ProgressCounter open(LedgerConfig config, String runId) {
    return new ProgressCounter(runId, RetryingLedger.open(config, POLICY), true);
  }

  /** A counter that sends its counts through {@code ledger}, which the caller closes. */
  public static ProgressCounter through(RetryingLedger ledger, String runId) {
    return new ProgressCounter(runId, ledger, false);
  }

  /** Adds tiles claimed, skipped and done (published or failed); zeros send nothing. */
  public void add(long claimed, long skipped, long done) {
    if (claimed == 0 && skipped == 0 && done == 0) {
      return;
    }
    try {
      ledger.call(
          "record progress",
          l -> {
            l.addProgress(runId, claimed, skipped, done);
            return null;
          });
    } catch (SQLException | RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn("Progress of run {} is not being recorded: {}", runId, e.toString());
      }
    }
  }

  /** Adds source features read and pieces cut; zeros send nothing. */
  public void addCut(long features, long pieces) {
    addCut(features, pieces, java.util.Map.of());
  }

  /**
   * Adds source features read, pieces cut and features left out of zooms as smaller than the
   * minimum size (by zoom); zeros send nothing.
   */
  public void addCut(long features, long pieces, java.util.Map<Integer, Long> belowMinSize) {
    if (features == 0 && pieces == 0 && belowMinSize.isEmpty()) {
      return;
    }
    try {
      ledger.call(
          "record progress",
          l -> {
            l.addCutProgress(runId, features, pieces, belowMinSize);
            return null;
          });
    } catch (SQLException | RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn("Progress of run {} is not being recorded: {}", runId, e.toString());
      }
    }
  }

  @Override
  public void close() {
    if (own) {
      ledger.close();
    }
  }
}
