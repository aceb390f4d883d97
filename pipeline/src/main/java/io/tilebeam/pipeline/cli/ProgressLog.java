package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.RetryingLedger;
import io.tilebeam.io.ledger.RunProgress;
import io.tilebeam.io.retry.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress lines while a run's pipeline runs: every interval, what the workers have counted in the
 * ledger (tiles looked up, claimed, done, the rate and the time left). The ledger, not the runner's
 * metrics, is the source, so it works alike on every runner, a remote cluster included.
 */
final class ProgressLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProgressLog.class);

  private final ScheduledExecutorService timer;
  private final RetryingLedger ledger;

  private ProgressLog(ScheduledExecutorService timer, RetryingLedger ledger) {
    this.timer = timer;
    this.ledger = ledger;
  }

  /** Logs the progress of {@code runId} every {@code interval}; null means never. */
  static ProgressLog start(LedgerConfig config, String runId, Duration interval) {
    if (interval == null) {
      return new ProgressLog(null, null);
    }
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "tilebeam-progress");
              t.setDaemon(true);
              return t;
            });
    RetryingLedger ledger =
        RetryingLedger.open(
            config, new RetryPolicy(2, Duration.ofMillis(200), Duration.ofSeconds(1)));
    long[] last = {-1, 0}; // tiles done and System.nanoTime() at the last line
    timer.scheduleAtFixedRate(
        () -> {
          try {
            RunProgress p = ledger.call("read progress", l -> l.progress(runId));
            if (p != null) {
              long now = System.nanoTime();
              double recent =
                  last[0] < 0 || p.done() <= last[0]
                      ? 0
                      : (p.done() - last[0]) / ((now - last[1]) / 1e9);
              last[0] = p.done();
              last[1] = now;
              LOG.info("Run {}: {}", runId, p.describe(recent));
            }
          } catch (Exception e) {
            // A progress line is not worth failing or slowing the run for.
            LOG.debug("Progress of run {} cannot be read: {}", runId, e.toString());
          }
        },
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return new ProgressLog(timer, ledger);
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
      try {
        timer.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ledger.close();
    }
  }
}
