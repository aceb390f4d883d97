package io.tilebeam.io.ledger;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileOutcome;
import io.tilebeam.transforms.outcome.TileOutcomeCoder;
import java.sql.SQLException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.SetState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.WithKeys;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * The two ledger stages of the graph: FilterAgainstLedger claims keys before any work, CommitLedger
 * records how each claimed tile ended after a barrier. Their counters' names are constants here,
 * read by the run report.
 *
 * <pre>{@code
 * PCollection<KV<WorkKey, TileWork>> claimed =
 *     keyed.apply("FilterAgainstLedger", LedgerIO.claim(ledger, settings));
 * outcomes.apply("CommitLedger", LedgerIO.commit(ledger, settings)); // PCollection<TileOutcome>
 * }</pre>
 */
public final class LedgerIO {

  /** Keys claimed by this run. */
  public static final String CLAIMED = "claimed";

  /** Keys seen twice in one run. */
  public static final String DUPLICATES = "duplicateKeys";

  /** Keys skipped because they were completed. */
  public static final String SKIPPED_COMPLETED = "skippedCompleted";

  /** Keys skipped because another live run holds them. */
  public static final String SKIPPED_IN_FLIGHT = "skippedInFlight";

  /** Keys skipped because they failed permanently. */
  public static final String SKIPPED_FAILED = "skippedFailed";

  /** Completions committed. */
  public static final String COMMITTED = "committed";

  /** Completions refused because the run had lost its claim. */
  public static final String LOST_CLAIMS = "lostClaims";

  /** Failures recorded. */
  public static final String FAILED = "failed";

  /** Claim statements sent to the ledger by FilterAgainstLedger. */
  public static final String CLAIM_STATEMENTS = "claimStatements";

  /** Completion and failure statements sent to the ledger by CommitLedger. */
  public static final String COMMIT_STATEMENTS = "commitStatements";

  private LedgerIO() {}

  /** Stage 3, FilterAgainstLedger: dedupes keys and claims them in batches. */
  public static Claim claim(LedgerConfig ledger, RunSettings settings) {
    return new Claim(ledger, settings);
  }

  /** Stage 7, CommitLedger: records completions and failures after a barrier. */
  public static Commit commit(LedgerConfig ledger, RunSettings settings) {
    return new Commit(ledger, settings);
  }

  /** See {@link #claim}. */
  public static final class Claim
      extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollection<KV<WorkKey, TileWork>>> {
    private final LedgerConfig ledger;
    private final RunSettings settings;

    private Claim(LedgerConfig ledger, RunSettings settings) {
      this.ledger = ledger;
      this.settings = settings;
    }

    @Override
    public PCollection<KV<WorkKey, TileWork>> expand(PCollection<KV<WorkKey, TileWork>> input) {
      int shards = settings.shards();
      KvCoder<WorkKey, TileWork> workCoder = KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of());
      return input
          // State keyed by the work key itself is a state cell and a timer a key on the runner; a
          // bounded shard keeps per-key state cheap and still sends equal keys to one place.
          .apply(
              "ByShard",
              WithKeys.<Integer, KV<WorkKey, TileWork>>of(kv -> kv.getKey().shard(shards))
                  .withKeyType(TypeDescriptors.integers()))
          .setCoder(KvCoder.of(VarIntCoder.of(), workCoder))
          .apply("DedupeAndClaim", ParDo.of(new ClaimFn(ledger, settings)))
          .setCoder(workCoder);
    }
  }

  private static final class ClaimFn
      extends DoFn<KV<Integer, KV<WorkKey, TileWork>>, KV<WorkKey, TileWork>> {
    private final LedgerConfig config;
    private final RunSettings settings;
    private final Counter claimed = Metrics.counter(LedgerIO.class, CLAIMED);
    private final Counter duplicates = Metrics.counter(LedgerIO.class, DUPLICATES);
    private final Counter completed = Metrics.counter(LedgerIO.class, SKIPPED_COMPLETED);
    private final Counter inFlight = Metrics.counter(LedgerIO.class, SKIPPED_IN_FLIGHT);
    private final Counter failed = Metrics.counter(LedgerIO.class, SKIPPED_FAILED);
    private final Counter roundTrips = Metrics.counter(LedgerIO.class, CLAIM_STATEMENTS);
    private transient RetryingLedger ledger;

    @StateId("seen")
    private final StateSpec<SetState<String>> seenSpec = StateSpecs.set(StringUtf8Coder.of());

    @StateId("buffer")
    private final StateSpec<BagState<KV<WorkKey, TileWork>>> bufferSpec =
        StateSpecs.bag(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of()));

    @StateId("count")
    private final StateSpec<ValueState<Integer>> countSpec = StateSpecs.value(VarIntCoder.of());

    @TimerId("flush")
    private final TimerSpec flushSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

    ClaimFn(LedgerConfig config, RunSettings settings) {
      this.config = config;
      this.settings = settings;
    }

    @Setup
    public void setup() {
      ledger = RetryingLedger.open(config, settings.retry());
    }

    @ProcessElement
    public void process(
        @Element KV<Integer, KV<WorkKey, TileWork>> element,
        @StateId("seen") SetState<String> seen,
        @StateId("buffer") BagState<KV<WorkKey, TileWork>> buffer,
        @StateId("count") ValueState<Integer> count,
        @TimerId("flush") Timer flush,
        BoundedWindow window,
        OutputReceiver<KV<WorkKey, TileWork>> out)
        throws SQLException {
      KV<WorkKey, TileWork> work = element.getValue();
      // One state access to test and add: it is per element, and state access is the cost here.
      if (!Boolean.TRUE.equals(seen.addIfAbsent(work.getKey().value()).read())) {
        duplicates.inc();
        return;
      }
      buffer.add(work);
      Integer buffered = count.read();
      int n = (buffered == null ? 0 : buffered) + 1;
      if (n >= settings.batchSize()) {
        claimBuffered(buffer, out);
        count.write(0);
      } else {
        count.write(n);
        if (n == 1) {
          // Once per partial batch: the timer only has to outlive the buffer.
          flush.set(window.maxTimestamp());
        }
      }
    }

    @OnTimer("flush")
    public void onFlush(
        @StateId("buffer") BagState<KV<WorkKey, TileWork>> buffer,
        @StateId("count") ValueState<Integer> count,
        OutputReceiver<KV<WorkKey, TileWork>> out)
        throws SQLException {
      claimBuffered(buffer, out);
      count.write(0);
    }

    private void claimBuffered(
        BagState<KV<WorkKey, TileWork>> buffer, OutputReceiver<KV<WorkKey, TileWork>> out)
        throws SQLException {
      List<Map.Entry<WorkKey, TileWork>> batch = new ArrayList<>();
      for (KV<WorkKey, TileWork> kv : buffer.read()) {
        batch.add(new AbstractMap.SimpleImmutableEntry<>(kv.getKey(), kv.getValue()));
      }
      buffer.clear();
      if (batch.isEmpty()) {
        return;
      }
      Map<WorkKey, ClaimState> states =
          ledger.call(
              "claim",
              l -> l.claim(settings.runId(), settings.staleAfter(), settings.retryFailed(), batch));
      roundTrips.inc();
      long claimedHere = 0;
      for (Map.Entry<WorkKey, TileWork> e : batch) {
        ClaimState state = states.get(e.getKey());
        if (state == null) {
          throw new IllegalStateException("the ledger did not answer for key " + e.getKey());
        }
        switch (state) {
          case CLAIMED -> {
            claimed.inc();
            claimedHere++;
            out.output(KV.of(e.getKey(), e.getValue()));
          }
          case COMPLETED -> completed.inc();
          case FAILED -> failed.inc();
          default -> inFlight.inc();
        }
      }
      ProgressCounter.through(ledger, settings.runId())
          .add(claimedHere, batch.size() - claimedHere, 0);
    }

    @Teardown
    public void teardown() {
      if (ledger != null) {
        ledger.close();
      }
    }
  }

  /** See {@link #commit}. */
  public static final class Commit extends PTransform<PCollection<TileOutcome>, PCollection<Long>> {
    private final LedgerConfig ledger;
    private final RunSettings settings;

    private Commit(LedgerConfig ledger, RunSettings settings) {
      this.ledger = ledger;
      this.settings = settings;
    }

    /** Commits published tiles and failures; returns the number of rows committed per shard. */
    @Override
    public PCollection<Long> expand(PCollection<TileOutcome> input) {
      int shards = settings.shards();
      return input
          .apply(
              "ByShard",
              WithKeys.<Integer, TileOutcome>of(o -> o.key().shard(shards))
                  .withKeyType(TypeDescriptors.integers()))
          .setCoder(KvCoder.of(VarIntCoder.of(), TileOutcomeCoder.of()))
          // The barrier: a group materialises every publish result before the ledger hears of it,
          // so a retried commit never re-runs a publish.
          .apply("Barrier", GroupByKey.create())
          .apply("CommitBatches", ParDo.of(new CommitFn(ledger, settings)))
          .setCoder(org.apache.beam.sdk.coders.VarLongCoder.of());
    }
  }

  private static final class CommitFn extends DoFn<KV<Integer, Iterable<TileOutcome>>, Long> {
    private final LedgerConfig config;
    private final RunSettings settings;
    private final Counter committed = Metrics.counter(LedgerIO.class, COMMITTED);
    private final Counter lost = Metrics.counter(LedgerIO.class, LOST_CLAIMS);
    private final Counter failed = Metrics.counter(LedgerIO.class, FAILED);
    private final Counter roundTrips = Metrics.counter(LedgerIO.class, COMMIT_STATEMENTS);
    private transient RetryingLedger ledger;

    CommitFn(LedgerConfig config, RunSettings settings) {
      this.config = config;
      this.settings = settings;
    }

    @Setup
    public void setup() {
      ledger = RetryingLedger.open(config, settings.retry());
    }

    @ProcessElement
    public void process(@Element KV<Integer, Iterable<TileOutcome>> group, OutputReceiver<Long> out)
        throws SQLException {
      List<PublishResult> done = new ArrayList<>();
      List<TileFailure> failures = new ArrayList<>();
      long rows = 0;
      for (TileOutcome outcome : group.getValue()) {
        if (outcome instanceof PublishResult published) {
          done.add(published);
        } else {
          failures.add((TileFailure) outcome);
        }
        if (done.size() >= settings.batchSize()) {
          rows += commitDone(done);
        }
        if (failures.size() >= settings.batchSize()) {
          rows += commitFailures(failures);
        }
      }
      rows += commitDone(done) + commitFailures(failures);
      out.output(rows);
    }

    private long commitDone(List<PublishResult> done) throws SQLException {
      if (done.isEmpty()) {
        return 0;
      }
      int n = ledger.call("complete", l -> l.complete(settings.runId(), done)).size();
      roundTrips.inc();
      committed.inc(n);
      lost.inc(done.size() - n);
      done.clear();
      return n;
    }

    private long commitFailures(List<TileFailure> failures) throws SQLException {
      if (failures.isEmpty()) {
        return 0;
      }
      int n = ledger.call("fail", l -> l.fail(settings.runId(), failures)).size();
      roundTrips.inc();
      failed.inc(failures.size());
      lost.inc(failures.size() - n);
      failures.clear();
      return n;
    }

    @Teardown
    public void teardown() {
      if (ledger != null) {
        ledger.close();
      }
    }
  }
}
