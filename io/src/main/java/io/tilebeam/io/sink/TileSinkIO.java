package io.tilebeam.io.sink;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.ProgressCounter;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.FeatureFailureCoder;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResultCoder;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Instant;

/**
 * Stage 6 of the graph, the idempotent sink: each rendered tile is encoded and published to its
 * deterministic final name through a temporary object ({@link LocalTileSink}, {@link GcsTileSink})
 * or replaces the tile's rows in one transaction ({@link PostGisTileSink}).
 *
 * <p>Publishing happens inside the DoFn, which is marked {@code @RequiresStableInput} so that a
 * retried bundle publishes the same bytes; Beam's {@code WriteFiles} is not used because its single
 * finaliser renames a few hundred files a minute. Tiles are held for a batch of up to 256 (or 4 MB
 * of heap) and published together ({@link TileSink#publishAll}), so that their disk flushes are
 * grouped; a tile's result is emitted only once it is durable, and the bundle's last batch is
 * published when the bundle finishes.
 *
 * <pre>{@code
 * PCollectionTuple published =
 *     rendered.apply("PublishTiles", TileSinkIO.publish(specs, runId, ledger));
 * published.get(TileSinkIO.PUBLISHED); // and FAILED, DEAD_LETTERS
 * }</pre>
 */
public final class TileSinkIO {

  /** Counter of tiles written (new bytes published). */
  public static final String WRITTEN = "written";

  /** Counter of tiles whose published bytes were already the same: nothing written. */
  public static final String UNCHANGED = "unchanged";

  /** Counter of features in the tiles published. */
  public static final String FEATURES_WRITTEN = "featuresWritten";

  /** The tiles published. */
  public static final TupleTag<PublishResult> PUBLISHED = new TupleTag<>() {};

  /**
   * Tiles that could not be encoded or published for good (a storage error no retry clears), for
   * CommitLedger and the tile dead letters.
   */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  /**
   * The features rendering could not use ({@link RenderedTile#deadLetters()}), passed on for every
   * tile taken, published or not. They travel inside their tile so that rendering has one output
   * and runs in the same task as publishing: a second output of its own made the runner (Flink)
   * encode and decode every rendered tile between the two.
   */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  private TileSinkIO() {}

  /**
   * Publishes tiles with these specs, one per layer name, as run {@code runId}; PostGIS outputs in
   * the {@code ledger}'s database complete their tiles in the same transaction as the rows.
   */
  public static <T extends TileContent> Publish<T> publish(
      Map<String, PublishSpec> specs, String runId, LedgerConfig ledger) {
    return new Publish<>(specs, runId, ledger);
  }

  /** The publishing transform; see {@link TileSinkIO}. */
  public static final class Publish<T extends TileContent>
      extends PTransform<PCollection<T>, PCollectionTuple> {
    private final Map<String, PublishSpec> specs;
    private final String runId;
    private final LedgerConfig ledger;

    private Publish(Map<String, PublishSpec> specs, String runId, LedgerConfig ledger) {
      this.specs = Map.copyOf(specs);
      this.runId = runId;
      this.ledger = ledger;
    }

    @Override
    public PCollectionTuple expand(PCollection<T> input) {
      PCollectionTuple out =
          input.apply(
              "EncodeAndPublish",
              ParDo.of(new PublishFn<T>(specs, runId, ledger))
                  .withOutputTags(PUBLISHED, TupleTagList.of(FAILED).and(DEAD_LETTERS)));
      out.get(PUBLISHED).setCoder(PublishResultCoder.of());
      out.get(FAILED).setCoder(TileFailureCoder.of());
      out.get(DEAD_LETTERS).setCoder(FeatureFailureCoder.of());
      return out;
    }
  }

  private static final class PublishFn<T extends TileContent> extends DoFn<T, PublishResult> {
    private static final long PROGRESS_NANOS = 5_000_000_000L;

    /** Tiles published as one batch, at most. */
    private static final int BATCH_TILES = 256;

    /**
     * Heap held by the tiles of a batch, at most (a huge tile goes alone). Grouping the flushes of
     * big tiles saves little, and what a batch holds outlives young collections, so a large batch
     * turns into full collections.
     */
    private static final long BATCH_BYTES = 4L << 20;

    private final Map<String, PublishSpec> specs;
    private final String runId;
    private final LedgerConfig ledger;
    private final Counter written = Metrics.counter(TileSinkIO.class, WRITTEN);
    private final Counter unchanged = Metrics.counter(TileSinkIO.class, UNCHANGED);
    private final Counter featuresWritten = Metrics.counter(TileSinkIO.class, FEATURES_WRITTEN);
    private transient Map<String, TileSink> sinks;
    private transient ProgressCounter progress;
    private transient long doneInBundle;
    private transient long lastCount;
    private transient List<Held> batch;
    private transient long batchBytes;

    PublishFn(Map<String, PublishSpec> specs, String runId, LedgerConfig ledger) {
      this.specs = specs;
      this.runId = runId;
      this.ledger = ledger;
    }

    @Setup
    public void setup() throws IOException {
      sinks = new HashMap<>();
      for (Map.Entry<String, PublishSpec> e : specs.entrySet()) {
        sinks.put(e.getKey(), TileSinks.open(e.getValue(), runId, ledger));
      }
      progress = ProgressCounter.open(ledger, runId);
    }

    @StartBundle
    public void startBundle() {
      batch = new ArrayList<>();
      batchBytes = 0;
      doneInBundle = 0;
      lastCount = System.nanoTime();
    }

    /**
     * Counts the tiles done so far in the ledger every few seconds, not only when the bundle ends:
     * a runner may make a whole partition one bundle (Flink in batch does).
     */
    private void countProgress() {
      doneInBundle++;
      if (System.nanoTime() - lastCount > PROGRESS_NANOS) {
        progress.add(0, 0, doneInBundle);
        doneInBundle = 0;
        lastCount = System.nanoTime();
      }
    }

    @RequiresStableInput
    @ProcessElement
    public void process(
        @Element T tile,
        @Timestamp Instant timestamp,
        BoundedWindow window,
        MultiOutputReceiver out)
        throws IOException {
      batch.add(new Held(tile, timestamp, window));
      batchBytes += tile.heapBytes();
      if (batch.size() >= BATCH_TILES || batchBytes >= BATCH_BYTES) {
        flush(
            (tag, value, held) -> {
              @SuppressWarnings("unchecked")
              TupleTag<Object> t = (TupleTag<Object>) tag;
              out.get(t).output(value);
            });
      }
    }

    /** Where a flushed tile's result goes: the element's receiver, or the bundle's context. */
    private interface Emit {
      void emit(TupleTag<?> tag, Object value, Held held);
    }

    /** A tile waiting for its batch, with what its output needs. */
    private record Held(TileContent tile, Instant timestamp, BoundedWindow window) {}

    /**
     * Publishes the held tiles of each layer as one batch (their durability steps grouped), then
     * emits their results: a tile's result is emitted only once it is durable.
     */
    private void flush(Emit emit) throws IOException {
      if (batch.isEmpty()) {
        return;
      }
      Map<String, List<Held>> byLayer = new TreeMap<>();
      for (Held h : batch) {
        byLayer.computeIfAbsent(h.tile().work().layer(), l -> new ArrayList<>()).add(h);
      }
      for (Map.Entry<String, List<Held>> layer : byLayer.entrySet()) {
        List<Held> held = layer.getValue();
        List<TileSink.Attempt> attempts =
            sinks.get(layer.getKey()).publishAll(held.stream().map(Held::tile).toList());
        for (int i = 0; i < held.size(); i++) {
          TileContent tile = held.get(i).tile();
          TileSink.Attempt a = attempts.get(i);
          countProgress();
          for (FeatureFailure f : tile.deadLetters()) {
            emit.emit(DEAD_LETTERS, f, held.get(i));
          }
          if (a.failure() != null) {
            // This tile alone cannot be published; storage errors that may pass (IOException)
            // fail the bundle instead, so that the runner retries it.
            TileDataException e = a.failure();
            emit.emit(
                FAILED,
                new TileFailure(
                    tile.key(), tile.work(), e.errorClass(), String.valueOf(e.getMessage())),
                held.get(i));
            continue;
          }
          PublishResult result = a.result();
          (result.outcome() == PublishResult.Outcome.WRITTEN ? written : unchanged).inc();
          featuresWritten.inc(result.featureCount());
          emit.emit(PUBLISHED, result, held.get(i));
        }
      }
      batch.clear();
      batchBytes = 0;
    }

    /** The bundle's last tiles published, and all its tiles counted in the ledger. */
    @FinishBundle
    public void finishBundle(FinishBundleContext c) throws IOException {
      flush(
          (tag, value, held) -> {
            @SuppressWarnings("unchecked")
            TupleTag<Object> t = (TupleTag<Object>) tag;
            c.output(t, value, held.timestamp(), held.window());
          });
      progress.add(0, 0, doneInBundle);
      doneInBundle = 0;
    }

    @Teardown
    public void teardown() throws IOException {
      if (progress != null) {
        progress.close();
      }
      if (sinks != null) {
        for (TileSink s : sinks.values()) {
          s.close();
        }
      }
    }
  }
}
