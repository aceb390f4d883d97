package io.tilebeam.io.ledger;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's life in the ledger, one method a step, in the order a run takes them: {@link #migrate},
 * {@link #releaseKilledRuns} (embedded ledger only), {@link #start} (record the run and look its
 * planned tiles up), then the graph (which claims, counts progress and commits by itself), then
 * {@link #end}, and after a failure {@link #releaseOwnClaims}. Statements that fail in a way that
 * may pass are retried under the job's policy; the end and the release are best effort, so that a
 * ledger lost at the end of a run does not hide the run's own outcome.
 *
 * @param config the ledger (the graph's own statements and the progress log use it too)
 * @param retry how its statements that fail in a way that may pass are retried
 */
public record RunLedger(LedgerConfig config, RetryPolicy retry) {

  private static final Logger LOG = LoggerFactory.getLogger(RunLedger.class);

  /** Brings the ledger's schema up to date (Flyway; a no-op when it is). */
  public void migrate() {
    Retrier.of(retry, PgConnections::passes)
        .call(
            "migrate the ledger",
            () -> {
              LedgerSchema.migrate(config);
              return null;
            });
  }

  /**
   * Releases every unfinished claim. Only for a ledger this process holds exclusively (the embedded
   * one): every such claim belongs to a run that was killed or failed, and is released now instead
   * of after the stale window.
   *
   * @throws LedgerUnavailableException when the ledger cannot be reached
   */
  public void releaseKilledRuns() {
    try (LedgerAdmin admin = LedgerAdmin.open(config)) {
      int released = admin.releaseAllClaims();
      if (released > 0) {
        LOG.info("Released {} claims of runs that were killed before they finished", released);
      }
    } catch (SQLException e) {
      throw new LedgerUnavailableException(
          "cannot release the claims of killed runs in "
              + config.maskedUrl()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Records run {@code runId} (its job digest and planned tile count), then makes {@code lookUp} on
   * the same connection: what the planned tiles' states say of the work to do.
   *
   * @throws LedgerUnavailableException when the ledger cannot be reached
   */
  public <T> T start(
      String runId, String jobDigest, long planned, RetryingLedger.Statement<T> lookUp) {
    try (RetryingLedger l = RetryingLedger.open(config, retry)) {
      l.call(
          "record the run",
          x -> {
            x.startRun(runId, jobDigest, planned);
            return null;
          });
      return l.call("look up the planned tiles", lookUp);
    } catch (SQLException e) {
      throw new LedgerUnavailableException(
          "cannot record the run in " + config.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Records the end of run {@code runId}: its status and its counts as JSON. Best effort, with the
   * default patience whatever the run's retry settings: the run is over.
   */
  public void end(String runId, String status, String countsJson) {
    try (RetryingLedger l = RetryingLedger.open(config, RetryPolicy.DEFAULT)) {
      l.call(
          "record the end of the run",
          x -> {
            x.endRun(runId, status, countsJson);
            return null;
          });
    } catch (SQLException | RuntimeException e) {
      LOG.warn("Could not record the end of run {}: {}", runId, e.getMessage());
    }
  }

  /**
   * Releases the unfinished claims of failed run {@code runId} at once, instead of leaving them to
   * wait out the stale window. Best effort.
   */
  public void releaseOwnClaims(String runId) {
    try (LedgerAdmin admin = LedgerAdmin.open(config)) {
      admin.releaseRun(runId);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("Could not release the claims of failed run {}: {}", runId, e.getMessage());
    }
  }
}
