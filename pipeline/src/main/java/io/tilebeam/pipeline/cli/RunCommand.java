package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.ClaimState;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.RunLedger;
import io.tilebeam.io.ledger.RunSettings;
import io.tilebeam.pipeline.graph.TilebeamGraph;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.preview.PreviewFiles;
import io.tilebeam.pipeline.preview.PreviewLayers;
import io.tilebeam.transforms.crs.CrsResolver;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
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

  /**
   * Runs the job, as the README describes a run: the ledger is brought up to date (and, when it is
   * embedded, the claims of killed runs released), the run is recorded and its planned tiles looked
   * up; when none needs work the run ends there, otherwise the graph claims, builds, publishes and
   * commits; the run's end is recorded, its report printed and written.
   */
  static int run(JobPlan plan, Options options, LedgerHandle.Opening opening, PrintStream out)
      throws IOException {
    try (LedgerHandle handle = opening.get()) {
      RunLedger ledger = new RunLedger(handle.config(), plan.retry());
      ledger.migrate();
      if (handle.isEmbedded()) {
        ledger.releaseKilledRuns();
      }
      RunSettings settings = runSettings(newRunId(), options, plan);
      String runId = settings.runId();
      // Beam's options are needed as soon as one tile needs work: built from then on, while the
      // look-up ends.
      RunReport nothingToDo =
          ledger.start(
              runId,
              plan.digest(),
              plan.tileCount(),
              x -> nothingToDo(plan, x, settings, options.beam()::prepare));
      RunReport report;
      if (nothingToDo != null) {
        checkBeamOptions(options, ledger, runId);
        LOG.info("Run {}: no planned tile needs work; the pipeline is not started", runId);
        report = nothingToDo;
      } else {
        report = runGraph(plan, ledger, settings, options);
      }
      report = report.withSkippedColumns(plan.skippedColumns());
      List<PackArchives.Packed> packed = pack(plan, ledger, runId);
      ledger.end(
          runId, report.failed() > 0 ? "finished-with-failures" : "succeeded", report.toJson());
      out.println(report.summary());
      packed.forEach(p -> out.println(p.summary()));
      previews(plan, out);
      if (options.reportFile() != null) {
        Files.writeString(Path.of(options.reportFile()), report.toJson() + "\n");
      }
      return report.failed() > 0 ? ExitCode.TILES_FAILED : ExitCode.OK;
    }
  }

  /**
   * The pack stage: archived layers packed once their tiles are all completed. A pack that fails
   * ends the run as failed (exit 1); the archive published before stays whole.
   */
  private static List<PackArchives.Packed> pack(JobPlan plan, RunLedger ledger, String runId) {
    try {
      return PackArchives.run(plan, ledger.config(), runId, plan.retry());
    } catch (RuntimeException e) {
      ledger.end(runId, "failed", "{}");
      throw e;
    }
  }

  /**
   * Writes the map preview of each local output directory that holds a layer it can show, and says
   * how to look at it. A preview that cannot be written is said, not a failed run: the tiles are
   * published.
   */
  private static void previews(JobPlan plan, PrintStream out) {
    PreviewLayers.of(plan)
        .forEach(
            (dir, layers) -> {
              try {
                Path page = PreviewFiles.write(dir, layers);
                out.println("preview: " + page + " (tilebeam serve --dir " + dir + ")");
              } catch (IOException e) {
                LOG.warn("could not write the preview in {}: {}", dir, e.getMessage());
              }
            });
  }

  /** How this run claims and commits: the run's id and the {@code --claim-*} and retry flags. */
  private static RunSettings runSettings(String runId, Options options, JobPlan plan) {
    return RunSettings.of(runId, options.staleAfter())
        .withBatchSize(options.claimBatch())
        .withShards(options.claimShards())
        .withRetryFailed(options.retryFailed())
        .withRetry(plan.retry());
  }

  /**
   * Checks Beam's options even when nothing is to be done: a bad option must not wait for a night
   * with work.
   */
  private static void checkBeamOptions(Options options, RunLedger ledger, String runId) {
    try {
      options.beam().check();
    } catch (RuntimeException e) {
      ledger.end(runId, "failed", "{}");
      throw e;
    }
  }

  /**
   * Builds the graph and runs it to its end, logging progress; a run that fails releases its own
   * unfinished claims at once.
   */
  private static RunReport runGraph(
      JobPlan plan, RunLedger ledger, RunSettings settings, Options options) {
    String runId = settings.runId();
    checkBeamOptions(options, ledger, runId);
    PipelineOptions beam;
    try {
      beam = options.beam().get();
    } catch (RuntimeException e) {
      ledger.end(runId, "failed", "{}");
      throw e;
    }
    LOG.info("Run {} starting on {}", runId, beam.getRunner().getSimpleName());
    // The workers reproject: SIS's EPSG database, if they need it, opens while the runner starts.
    if (plan.needsEpsgDatabase()) {
      CrsResolver.warmUpInBackground();
    }
    Pipeline pipeline = Pipeline.create(beam);
    TilebeamGraph.build(pipeline, plan, ledger.config(), settings);
    ProgressLog progress = ProgressLog.start(ledger.config(), runId, options.progressEvery());
    try {
      PipelineResult result = pipeline.run();
      result.waitUntilFinish();
      return RunReport.from(result.metrics(), runId);
    } catch (RuntimeException e) {
      // The run is over: its unfinished claims would otherwise wait out the stale window.
      ledger.releaseOwnClaims(runId);
      ledger.end(runId, "failed", "{}");
      throw e;
    } finally {
      progress.close();
    }
  }

  /**
   * A rerun of finished work should cost only ledger look-ups: when no planned tile is pending,
   * stale or (with {@code --retry-failed}) failed, the report of a run that skipped everything,
   * read five thousand keys a statement; otherwise null, as soon as one tile needs work ({@code
   * onWork} is told then).
   */
  private static RunReport nothingToDo(
      JobPlan plan, Ledger ledger, RunSettings settings, Runnable onWork) {
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
    long duplicates = plan.layers().stream().mapToLong(l -> l.cover().duplicates()).sum();
    long planned = states.values().stream().mapToLong(Long::longValue).sum();
    return RunReport.skippedAll(
        settings.runId(),
        planned,
        duplicates,
        states.getOrDefault(ClaimState.COMPLETED, 0L),
        states.getOrDefault(ClaimState.IN_FLIGHT, 0L),
        states.getOrDefault(ClaimState.FAILED, 0L));
  }

  private static String newRunId() {
    return "run-" + RUN_TIME.format(Instant.now()) + "-" + randomHex();
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
