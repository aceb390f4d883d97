package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.ClaimSettings;
import io.tilebeam.io.ledger.ClaimState;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerAdmin;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.ledger.RetryingLedger;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.pipeline.graph.TilebeamGraph;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.transforms.crs.CrsResolver;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code tilebeam run}: claims the job's pending tiles, builds and publishes them, commits. */
final class RunCommand {

  private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private RunCommand() {}

  static int run(JobPlan plan, Options options, LedgerHandle.Opening opening, PrintStream out)
      throws IOException {
    try (LedgerHandle handle = opening.get()) {
      LedgerConfig ledger = handle.config();
      Retrier.of(plan.retry(), PgConnections::passes)
          .call(
              "migrate the ledger",
              () -> {
                LedgerSchema.migrate(ledger);
                return null;
              });
      if (handle.isEmbedded()) {
        releaseKilledRuns(ledger);
      }
      String runId = "run-" + RUN_TIME.format(Instant.now()) + "-" + randomHex();
      ClaimSettings settings =
          ClaimSettings.of(runId, options.staleAfter())
              .withBatchSize(options.claimBatch())
              .withShards(options.claimShards())
              .withRetryFailed(options.retryFailed())
              .withRetry(plan.retry());
      RunReport nothingToDo;
      try (RetryingLedger l = RetryingLedger.open(ledger, plan.retry())) {
        l.call(
            "record the run",
            x -> {
              x.startRun(runId, plan.digest(), plan.tileCount());
              return null;
            });
        // Beam's options are needed as soon as one tile needs work: built from then on, while
        // the look-up ends.
        nothingToDo =
            l.call(
                "look up the planned tiles",
                x -> nothingToDo(plan, x, settings, options.beam()::prepare));
      } catch (SQLException e) {
        throw new io.tilebeam.io.ledger.LedgerUnavailableException(
            "cannot record the run in " + ledger.maskedUrl() + ": " + e.getMessage(), e);
      }
      PipelineOptions beam = null;
      try {
        // Checked even when nothing is to be done: a bad option must not wait for a night with
        // work. Built only when there is work.
        options.beam().check();
        if (nothingToDo == null) {
          beam = options.beam().get();
        }
      } catch (RuntimeException e) {
        endRun(ledger, runId, "failed", "{}");
        throw e;
      }
      RunReport report;
      if (nothingToDo != null) {
        LOG.info("Run {}: no planned tile needs work; the pipeline is not started", runId);
        report = nothingToDo;
      } else {
        LOG.info("Run {} starting on {}", runId, beam.getRunner().getSimpleName());
        // The workers reproject: SIS's EPSG database opens while the runner starts.
        CrsResolver.warmUpInBackground();
        Pipeline pipeline = Pipeline.create(beam);
        TilebeamGraph.build(pipeline, plan, ledger, settings);
        ProgressLog progress = ProgressLog.start(ledger, runId, options.progressEvery());
        try {
          PipelineResult result = pipeline.run();
          result.waitUntilFinish();
          report = RunReport.from(result.metrics(), runId);
        } catch (RuntimeException e) {
          // The run is over: its unfinished claims would otherwise wait out the stale window.
          releaseOwnClaims(ledger, runId);
          endRun(ledger, runId, "failed", "{}");
          throw e;
        } finally {
          progress.close();
        }
      }
      endRun(
          ledger,
          runId,
          report.failed() > 0 ? "finished-with-failures" : "succeeded",
          report.toJson());
      out.println(report.summary());
      if (options.reportFile() != null) {
        Path reportFile = Path.of(options.reportFile());
        Files.writeString(reportFile, report.toJson() + "\n");
      }
      return report.failed() > 0 ? ExitCode.TILES_FAILED : ExitCode.OK;
    }
  }

  /**
   * A rerun of finished work should cost only ledger look-ups: when no planned tile is pending,
   * stale or (with {@code --retry-failed}) failed, the report of a run that skipped everything,
   * read five thousand keys a statement; otherwise null, as soon as one tile needs work ({@code
   * onWork} is told then).
   */
  private static RunReport nothingToDo(
      JobPlan plan, Ledger ledger, ClaimSettings settings, Runnable onWork) {
    boolean[] work = {false};
    Map<ClaimState, Long> states =
        TileStates.count(
            plan,
            ledger,
            settings.staleAfter(),
            counts -> {
              work[0] =
                  counts.containsKey(ClaimState.PENDING)
                      || counts.containsKey(ClaimState.STALE)
                      || (counts.containsKey(ClaimState.FAILED) && settings.retryFailed());
              if (work[0]) {
                onWork.run();
              }
              return work[0];
            });
    if (work[0]) {
      return null;
    }
    long duplicates = plan.layers().stream().mapToLong(l -> l.tiling().cover().duplicates()).sum();
    long planned = states.values().stream().mapToLong(Long::longValue).sum();
    return new RunReport(
        settings.runId(),
        planned,
        duplicates,
        states.getOrDefault(ClaimState.COMPLETED, 0L),
        states.getOrDefault(ClaimState.IN_FLIGHT, 0L),
        states.getOrDefault(ClaimState.FAILED, 0L),
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0);
  }

  /**
   * This process holds the embedded ledger exclusively, so every unfinished claim in it belongs to
   * a run that was killed or failed: it is released now instead of after the stale window.
   */
  private static void releaseKilledRuns(LedgerConfig ledger) {
    try (LedgerAdmin admin = LedgerAdmin.open(ledger)) {
      int released = admin.releaseAllClaims();
      if (released > 0) {
        LOG.info("Released {} claims of runs that were killed before they finished", released);
      }
    } catch (SQLException e) {
      throw new io.tilebeam.io.ledger.LedgerUnavailableException(
          "cannot release the claims of killed runs in "
              + ledger.maskedUrl()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static void releaseOwnClaims(LedgerConfig ledger, String runId) {
    try (LedgerAdmin admin = LedgerAdmin.open(ledger)) {
      admin.releaseRun(runId);
    } catch (SQLException | RuntimeException e) {
      LOG.warn("Could not release the claims of failed run {}: {}", runId, e.getMessage());
    }
  }

  private static void endRun(LedgerConfig ledger, String runId, String status, String counts) {
    try (RetryingLedger l = RetryingLedger.open(ledger, RetryPolicy.DEFAULT)) {
      // The run is over whatever its retry settings: its end is recorded with the default patience.
      l.call(
          "record the end of the run",
          x -> {
            x.endRun(runId, status, counts);
            return null;
          });
    } catch (SQLException | RuntimeException e) {
      LOG.warn("Could not record the end of run {}: {}", runId, e.getMessage());
    }
  }

  private static String randomHex() {
    byte[] b = new byte[4];
    ThreadLocalRandom.current().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The flags of {@code run}. */
  record Options(
      String reportFile,
      Duration staleAfter,
      int claimBatch,
      int claimShards,
      boolean retryFailed,
      Duration progressEvery,
      BeamOptions beam) {}
}
