package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.LedgerUnavailableException;
import io.tilebeam.io.ledger.RunSettings;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.JobSpec;
import io.tilebeam.pipeline.job.JobSpecException;
import io.tilebeam.pipeline.job.JobSpecParser;
import io.tilebeam.pipeline.job.SafeText;
import io.tilebeam.transforms.crs.EpsgDatabase;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Set;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.runners.flink.FlinkRunner;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command line: {@code tilebeam run|plan|status|reap|verify ...} ({@link #USAGE} lists every
 * flag). Flags tilebeam does not know are Beam pipeline options ({@code --runner=FlinkRunner},
 * {@code --flinkMaster=[local]}, ...).
 *
 * <pre>
 * tilebeam run    --job FILE [--ledger JDBC_URL] [--report FILE] [--tile-budget N] ...
 * tilebeam plan   --job FILE [--ledger JDBC_URL] [--tiles-out FILE]
 * tilebeam status|reap|verify --job FILE [--ledger JDBC_URL] ...
 * </pre>
 */
public final class Tilebeam {

  private static final Logger LOG = LoggerFactory.getLogger(Tilebeam.class);

  /** The largest plan a run accepts unless {@code --tile-budget} says otherwise. */
  public static final long DEFAULT_TILE_BUDGET = 1_000_000;

  /** How long one task may take unless {@code --task-timeout} says otherwise. */
  public static final Duration DEFAULT_TASK_TIMEOUT = Duration.ofMinutes(30);

  /** How often a run logs its progress unless {@code --progress-every} says otherwise. */
  public static final Duration DEFAULT_PROGRESS_EVERY = Duration.ofSeconds(30);

  private static final Set<String> FLAGS =
      Set.of(
          "--dir",
          "--port",
          "--host",
          "--job",
          "--ledger",
          "--report",
          "--tiles-out",
          "--tile-budget",
          "--home",
          "--task-timeout",
          "--stale-after",
          "--claim-batch",
          "--claim-shards",
          "--older-than",
          "--run",
          "--progress-every",
          "--retry-attempts",
          "--retry-base",
          "--retry-cap",
          "--retry-budget");

  private static final Set<String> SWITCHES = Set.of("--retry-failed", "--repair");

  static final String USAGE =
      String.join(
          "\n",
          "usage:",
          "  tilebeam run  --job FILE [--ledger JDBC_URL] [--report FILE] [--tile-budget N]",
          "                [--task-timeout DURATION] [--stale-after DURATION] [--claim-batch N]",
          "                [--runner=FlinkRunner|DirectRunner|DataflowRunner] [other Beam options]",
          "                [--claim-shards N] [--retry-failed] [--progress-every DURATION|off]",
          "                [--retry-attempts N] [--retry-base DURATION] [--retry-cap DURATION]",
          "                [--retry-budget DURATION]",
          "  tilebeam plan   --job FILE [--ledger JDBC_URL] [--tiles-out FILE]",
          "  tilebeam status [--ledger JDBC_URL] [--job FILE]",
          "  tilebeam reap   [--ledger JDBC_URL] [--older-than DURATION] [--run RUN_ID] [--job FILE]",
          "  tilebeam verify --job FILE [--ledger JDBC_URL] [--repair]",
          "  tilebeam serve  --dir OUTPUT_DIR [--port N (8080)] [--host H (127.0.0.1)]",
          "Without --ledger, the embedded PostgreSQL in ./.tilebeam/ is used (--home DIR moves it).",
          "Without --runner, run uses an embedded Flink ([local]) with one slot per core.",
          "Exit status: 0 all tiles written or skipped; 2 bad job or arguments; 3 tiles failed;"
              + " 1 anything else.");

  private Tilebeam() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    // Before anything reads a CRS: the first look-up costs seconds less from a stored copy.
    EpsgDatabase.useStoredCopy();
    System.exit(execute(args, System.out, System.err));
  }

  /** Runs the command line and returns its exit status. */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    try {
      Arguments a = Arguments.parse(args, FLAGS, SWITCHES);
      switch (a.command()) {
        case "run":
          return run(a, out);
        case "plan":
          return plan(a, out);
        case "status":
          return status(a, out);
        case "reap":
          return reap(a, out);
        case "verify":
          return verify(a, out);
        case "serve":
          return serve(a, out);
        case "help":
        case "--help":
          out.println(USAGE);
          return ExitCode.OK;
        default:
          throw new UsageException("unknown command '" + a.command() + "'");
      }
    } catch (UsageException e) {
      err.println("tilebeam: " + SafeText.escape(e.getMessage()));
      err.println(USAGE);
      return ExitCode.BAD_INPUT;
    } catch (JobSpecException e) {
      err.println("tilebeam: bad job: " + SafeText.escape(e.getMessage()));
      return ExitCode.BAD_INPUT;
    } catch (LedgerUnavailableException e) {
      err.println("tilebeam: ledger: " + SafeText.escape(e.getMessage()));
      return ExitCode.ERROR;
    } catch (Exception e) {
      LOG.debug("Failure", e);
      err.println("tilebeam: failed: " + SafeText.escape(describe(e)));
      return ExitCode.ERROR;
    }
  }

  private static int run(Arguments a, PrintStream out) throws java.io.IOException {
    // Start-ups overlap, as a rerun of finished work is mostly start-ups: the embedded ledger's and
    // Beam's options (reflection over the class path; see BeamOptions), while the job file is
    // read and resolved.
    try (LedgerHandle.Opening ledger = LedgerHandle.openEarly(a.get("--ledger"), home(a))) {
      BeamOptions beam = BeamOptions.start(a.beamArgs());
      JobPlan plan = resolve(a);
      if (RemoteWorkers.remote(a.beamArgs())) {
        RemoteWorkers.check(plan, a.get("--ledger"));
      }
      return run(a, plan, beam, ledger, out);
    }
  }

  /**
   * Beam's options from the command line. Without {@code --runner}, the job runs on an embedded
   * Flink ({@code --flinkMaster=[local]}) with one slot per core: it spills to disk and uses every
   * core, so it carries real data at real zooms, which the DirectRunner (held in memory, for tests
   * and small jobs) does not. On Flink, embedded or not, Flink's cheaper object copies ({@code
   * --fasterCopy}) and fully pipelined exchanges ({@code --executionModeForBatch=PIPELINED_FORCED})
   * are on unless given, and the embedded Flink's sort memory is a fixed size a slot unless Flink
   * is given a configuration ({@link EmbeddedFlinkMemory}).
   *
   * <p>On the DirectRunner, its element checks (every element encoded and compared after every
   * step, to catch coder and mutation bugs while developing a pipeline) are off unless asked for:
   * they cost 3 to 4 times the claim rate, and tilebeam's coders and DoFns are checked by its
   * tests, which turn them on.
   */
  static PipelineOptions beamOptions(java.util.List<String> given) {
    java.util.List<String> args = new java.util.ArrayList<>(given);
    if (!given(args, "runner")) {
      args.add("--runner=FlinkRunner");
      if (!given(args, "flinkMaster")) {
        args.add("--flinkMaster=[local]");
      }
      if (!given(args, "parallelism")) {
        args.add("--parallelism=" + Runtime.getRuntime().availableProcessors());
      }
    }
    PipelineOptions options;
    try {
      options =
          PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).withValidation().create();
    } catch (IllegalArgumentException e) {
      throw new UsageException("Beam options " + given + ": " + e.getMessage());
    }
    if (options.getRunner() == FlinkRunner.class) {
      flinkDefaults(args, options.as(FlinkPipelineOptions.class));
    }
    WorkerJar.stageFor(args, options, WorkerJar.besideLauncher());
    if (options.getRunner() == DirectRunner.class) {
      DirectOptions direct = options.as(DirectOptions.class);
      if (!given(args, "enforceImmutability")) {
        direct.setEnforceImmutability(false);
      }
      if (!given(args, "enforceEncodability")) {
        direct.setEnforceEncodability(false);
      }
    }
    return options;
  }

  /** Flink's options tilebeam sets unless the command line gives them. */
  private static void flinkDefaults(java.util.List<String> args, FlinkPipelineOptions flink) {
    if (!given(args, "fasterCopy")) {
      // Without it Flink copies every element between chained steps through its coder, a tile's
      // thousands of pieces included; tilebeam's DoFns never change an element once output.
      flink.setFasterCopy(true);
    }
    if (!given(args, "executionModeForBatch")) {
      // Flink's default makes every exchange of a branch that joins again blocking: the pieces
      // were written out whole and read back only after the last feature was read, a pass of its
      // own. tilebeam's graph cannot deadlock pipelined: its only two-input steps are unions and
      // the claimed tiles' side input, whose producer shares no upstream with the reading it feeds.
      flink.setExecutionModeForBatch("PIPELINED_FORCED");
    }
    EmbeddedFlinkMemory.apply(flink, System::getenv);
  }

  private static boolean given(java.util.List<String> args, String option) {
    return args.stream()
        .anyMatch(a -> a.equals("--" + option) || a.startsWith("--" + option + "="));
  }

  private static int run(
      Arguments a, JobPlan plan, BeamOptions beam, LedgerHandle.Opening ledger, PrintStream out)
      throws java.io.IOException {
    long budget = positiveLong(a, "--tile-budget", DEFAULT_TILE_BUDGET);
    long tiles = plan.tileCount();
    if (tiles > budget) {
      throw new JobSpecException(
          "--tile-budget",
          budget,
          "the job plans " + tiles + " tiles, more than the budget; raise --tile-budget to run it");
    }
    Duration staleAfter = staleAfter(a);
    RunCommand.Options options =
        new RunCommand.Options(
            reportFile(a.get("--report")),
            staleAfter,
            (int) Math.min(10_000, positiveLong(a, "--claim-batch", 500)),
            (int) Math.min(4096, positiveLong(a, "--claim-shards", RunSettings.DEFAULT_SHARDS)),
            a.has("--retry-failed"),
            "off".equals(a.get("--progress-every"))
                ? null
                : duration(a, "--progress-every", DEFAULT_PROGRESS_EVERY),
            beam);
    return RunCommand.run(plan, options, ledger, out);
  }

  /**
   * The report's path, checked before any work: a report that cannot be written would otherwise be
   * found out after every tile was published, and fail a run that succeeded.
   */
  private static String reportFile(String given) {
    if (given == null) {
      return null;
    }
    Path file = Path.of(given).toAbsolutePath().normalize();
    Path parent = file.getParent();
    String problem = null;
    if (Files.isDirectory(file)) {
      problem = "is a directory, not a file";
    } else if (parent == null || !Files.isDirectory(parent)) {
      problem = "its directory " + parent + " does not exist";
    } else if (Files.exists(file) ? !Files.isWritable(file) : !Files.isWritable(parent)) {
      problem = "cannot be written (permissions)";
    }
    if (problem != null) {
      throw new UsageException("--report " + given + ": " + problem);
    }
    return file.toString();
  }

  private static int plan(Arguments a, PrintStream out) throws java.io.IOException {
    noBeamOptions(a);
    JobPlan plan = resolve(a);
    String tilesOut = a.get("--tiles-out");
    return PlanCommand.run(
        plan,
        a.get("--ledger"),
        home(a),
        staleAfter(a),
        tilesOut == null ? null : Path.of(tilesOut),
        out);
  }

  private static int status(Arguments a, PrintStream out) {
    noBeamOptions(a);
    String job = a.get("--job");
    String namespace = job == null ? null : JobSpecParser.parse(Path.of(job)).namespace();
    return StatusCommand.run(a.get("--ledger"), home(a), namespace, staleAfter(a), out);
  }

  private static int reap(Arguments a, PrintStream out) throws java.io.IOException {
    noBeamOptions(a);
    JobPlan plan = a.get("--job") == null ? null : resolve(a);
    Duration olderThan = duration(a, "--older-than", staleAfter(a));
    return ReapCommand.run(a.get("--ledger"), home(a), a.get("--run"), olderThan, plan, out);
  }

  private static int serve(Arguments a, PrintStream out) throws java.io.IOException {
    noBeamOptions(a);
    String dir = a.get("--dir");
    if (dir == null) {
      throw new UsageException("serve needs --dir, the output directory to serve");
    }
    long port = a.get("--port") == null ? ServeCommand.DEFAULT_PORT : nonNegativeLong(a, "--port");
    if (port > 65535) {
      throw new UsageException("--port " + port + ": not a port (0-65535)");
    }
    String host = a.get("--host") == null ? "127.0.0.1" : a.get("--host");
    return ServeCommand.run(Path.of(dir), host, (int) port, out);
  }

  private static long nonNegativeLong(Arguments a, String flag) {
    try {
      long v = Long.parseLong(a.get(flag));
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new UsageException(flag + " " + a.get(flag) + ": not a whole number >= 0");
  }

  private static int verify(Arguments a, PrintStream out) throws java.io.IOException {
    noBeamOptions(a);
    return VerifyCommand.run(a.get("--ledger"), home(a), resolve(a), a.has("--repair"), out);
  }

  private static void noBeamOptions(Arguments a) {
    if (!a.beamArgs().isEmpty()) {
      throw new UsageException(a.command() + " does not take " + a.beamArgs());
    }
  }

  private static JobPlan resolve(Arguments a) {
    // No CRS warm-up here: planning a job planned before reads its CRS facts from the CrsMemo and
    // never opens the EPSG database; a run warms it up for its workers once it has work.
    Path job = Path.of(a.require("--job"));
    JobSpec spec = JobSpecParser.parse(job);
    try {
      return JobPlan.resolve(spec, retryPolicy(a));
    } catch (JobSpecException e) {
      throw JobSpecParser.placeInFile(e, job);
    }
  }

  /**
   * How calls to outside systems retry failures that may pass: {@code --retry-attempts}, {@code
   * --retry-base}, {@code --retry-cap} and {@code --retry-budget}, each defaulting to {@link
   * RetryPolicy#DEFAULT}'s.
   */
  private static RetryPolicy retryPolicy(Arguments a) {
    RetryPolicy d = RetryPolicy.DEFAULT;
    long attempts = positiveLong(a, "--retry-attempts", d.maxAttempts());
    try {
      return new RetryPolicy(
          (int) Math.min(attempts, 100),
          duration(a, "--retry-base", d.base()),
          duration(a, "--retry-cap", d.cap()),
          duration(a, "--retry-budget", d.budget()));
    } catch (IllegalArgumentException e) {
      throw new UsageException("retry settings: " + e.getMessage());
    }
  }

  private static Path home(Arguments a) {
    String home = a.get("--home");
    return Path.of(home == null ? ".tilebeam" : home);
  }

  /**
   * Claims older than this may be taken over. It derives from the task timeout (twice it) so that a
   * live task is never robbed; a window set shorter than the timeout is refused.
   */
  private static Duration staleAfter(Arguments a) {
    Duration timeout = duration(a, "--task-timeout", DEFAULT_TASK_TIMEOUT);
    Duration stale = duration(a, "--stale-after", timeout.multipliedBy(2));
    if (stale.compareTo(timeout) <= 0) {
      throw new UsageException(
          "--stale-after " + stale + " must be longer than --task-timeout " + timeout);
    }
    return stale;
  }

  private static Duration duration(Arguments a, String flag, Duration fallback) {
    String v = a.get(flag);
    if (v == null) {
      return fallback;
    }
    try {
      Duration d = Duration.parse(v.startsWith("P") || v.startsWith("p") ? v : "PT" + v);
      if (d.isNegative() || d.isZero()) {
        throw new UsageException(flag + " must be positive, was '" + v + "'");
      }
      return d;
    } catch (DateTimeParseException e) {
      throw new UsageException(flag + " '" + v + "' is not a duration (examples: 30m, 2h, PT90S)");
    }
  }

  private static long positiveLong(Arguments a, String flag, long fallback) {
    String v = a.get(flag);
    if (v == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(v);
      if (n < 1) {
        throw new UsageException(flag + " must be at least 1, was '" + v + "'");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(flag + " '" + v + "' is not a whole number");
    }
  }

  private static String describe(Throwable e) {
    StringBuilder s = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable c = e; c.getCause() != null && c != c.getCause(); ) {
      if (c instanceof PgConnections.Explained) {
        break; // its message says it all; the driver's beneath it only repeat it less clearly
      }
      c = c.getCause();
      if (c.getMessage() != null && !s.toString().contains(c.getMessage())) {
        s.append(": ").append(c.getMessage());
      }
    }
    return s.toString();
  }
}
