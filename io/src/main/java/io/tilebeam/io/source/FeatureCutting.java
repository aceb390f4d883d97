package io.tilebeam.io.source;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.ProgressCounter;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import java.io.Serializable;
import java.util.function.Consumer;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.values.KV;

/**
 * Cuts features into tile pieces and counts what it does, for every DoFn that reads or cuts: the
 * counters are {@link ReadFeatures}'s, whichever way the source is read. With a ledger, features
 * read and pieces cut are also added to the run's progress every few seconds and when a bundle ends
 * ({@link #flush}), so that the progress lines move while a big job reads and cuts.
 */
final class FeatureCutting implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long PROGRESS_NANOS = 5_000_000_000L;
  private final LedgerConfig ledger;
  private final String runId;
  private transient ProgressCounter progress;
  private transient long featuresPending;
  private transient long piecesPending;
  private transient java.util.Map<Integer, Long> belowMinSizePending;
  private transient long lastSent;
  private transient PieceBatches batches;
  private final Counter read = Metrics.counter(ReadFeatures.class, ReadFeatures.FEATURES_READ);
  private final Counter empty = Metrics.counter(ReadFeatures.class, ReadFeatures.FEATURES_EMPTY);
  private final Counter pieces = Metrics.counter(ReadFeatures.class, ReadFeatures.PIECES);
  private final Counter outsideDomain =
      Metrics.counter(ReadFeatures.class, ReadFeatures.OUTSIDE_DOMAIN);
  private final Counter repaired = Metrics.counter(ReadFeatures.class, ReprojectTiles.REPAIRED);
  private final Counter deadLettered =
      Metrics.counter(ReadFeatures.class, ReprojectTiles.DEAD_LETTERED);

  /**
   * Cutting that adds its progress to run {@code runId} in {@code ledger}; without a ledger (null)
   * only the counters count.
   */
  FeatureCutting(LedgerConfig ledger, String runId) {
    this.ledger = ledger;
    this.runId = runId;
  }

  /** Counts a feature read from its source (cut here or after being spread over workers). */
  void countRead() {
    read.inc();
    featuresPending++;
    sendEvery();
  }

  private void sendEvery() {
    long now = System.nanoTime();
    if (lastSent == 0) {
      lastSent = now;
    } else if (now - lastSent > PROGRESS_NANOS) {
      flush();
    }
  }

  /** Adds what was read and cut since the last time to the run's progress. */
  void flush() {
    java.util.Map<Integer, Long> dropped =
        belowMinSizePending == null ? java.util.Map.of() : belowMinSizePending;
    if (ledger != null && (featuresPending > 0 || piecesPending > 0 || !dropped.isEmpty())) {
      if (progress == null) {
        progress = ProgressCounter.open(ledger, runId);
      }
      progress.addCut(featuresPending, piecesPending, dropped);
    }
    featuresPending = 0;
    piecesPending = 0;
    belowMinSizePending = null;
    lastSent = System.nanoTime();
  }

  /** Sends what is left and closes the progress connection. */
  void close() {
    flush();
    if (progress != null) {
      progress.close();
      progress = null;
    }
  }

  /**
   * Cuts one feature already counted as read, holding its pieces in batches by tile ({@link
   * PieceBatches}) that go to {@code out} when they are large enough or when {@link #sendPieces} is
   * called; a feature that cannot be placed becomes a dead letter.
   */
  void cut(
      String layer,
      FeatureCutter cutter,
      Feature f,
      TileFilter filter,
      Consumer<KV<String, TileInput>> out,
      Consumer<FeatureFailure> dead) {
    if (batches == null) {
      batches = new PieceBatches();
    }
    try {
      FeatureCutter.Cut c =
          cutter.cut(
              f,
              filter,
              (tile, piece) -> {
                batches.add(layer, tile, piece, out);
                // Counted as they come: one huge feature's pieces take minutes at high zooms.
                if ((++piecesPending & 1023) == 0) {
                  sendEvery();
                }
              });
      pieces.inc(c.pieces());
      sendEvery();
      outsideDomain.inc(c.outsideDomain());
      if (c.empty()) {
        empty.inc();
      }
      if (c.repair().repaired()) {
        repaired.inc();
      }
      countBelowMinSize(c);
    } catch (TileDataException e) {
      deadLettered.inc();
      dead.accept(new FeatureFailure(layer, f.id(), "", e.errorClass(), e.getMessage()));
    }
  }

  /**
   * Counts, zoom by zoom, a feature left out of a zoom's tiles as smaller than the minimum size.
   */
  private void countBelowMinSize(FeatureCutter.Cut c) {
    for (long zooms = c.belowMinSize(); zooms != 0; zooms &= zooms - 1) {
      int z = Long.numberOfTrailingZeros(zooms);
      Metrics.counter(ReadFeatures.class, ReadFeatures.belowMinSizeCounter(z)).inc();
      if (belowMinSizePending == null) {
        belowMinSizePending = new java.util.TreeMap<>();
      }
      belowMinSizePending.merge(z, 1L, Long::sum);
    }
  }

  /** Sends the pieces still held to {@code out}: a split, a group or a bundle has ended. */
  void sendPieces(Consumer<KV<String, TileInput>> out) {
    if (batches != null) {
      batches.sendAll(out);
    }
  }

  /** Forgets the pieces still held: their source failed, and their tiles with it. */
  void dropPieces() {
    if (batches != null) {
      batches.drop();
    }
  }

  /** A feature the source could not decode, counted as read and dead-lettered. */
  FeatureFailure bad(String layer, BadFeature b) {
    read.inc();
    deadLettered.inc();
    return new FeatureFailure(layer, b.featureId(), "", "geometry", b.reason());
  }

  /** Counts rings the source reader closed (a repair of the input). */
  void ringsClosed(long n) {
    repaired.inc(n);
  }
}
