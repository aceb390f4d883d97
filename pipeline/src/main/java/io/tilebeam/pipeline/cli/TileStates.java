package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.ClaimState;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerUnavailableException;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.key.KeyHasher;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Walks every tile a job plans, with its key and its state in the ledger, reading the ledger
 * thousands of keys a statement and claiming nothing. Used by {@code plan} and by {@code run}'s
 * check for finished work.
 */
final class TileStates {

  private static final int BATCH = 1000;

  /** Keys a statement when only their states' counts come back. */
  private static final int COUNT_BATCH = 5000;

  /** Receives each tile; returns false to stop the walk. */
  interface Visitor {
    boolean visit(LayerPlan layer, TileWork work, WorkKey key, ClaimState state);
  }

  private TileStates() {}

  /**
   * Visits the tiles layer by layer, in plan order, and returns how many were seen in each state.
   * Without a ledger every tile is {@link ClaimState#PENDING}.
   */
  static Map<ClaimState, Long> walk(
      JobPlan plan, Ledger ledger, Duration staleAfter, Visitor visitor) {
    Map<ClaimState, Long> totals = new EnumMap<>(ClaimState.class);
    inBatches(
        plan,
        true,
        BATCH,
        (layer, batch) -> flush(batch, layer, ledger, staleAfter, visitor, totals));
    return totals;
  }

  /**
   * Counts the job's tiles in each state, five thousand keys a statement, and stops after the first
   * statement whose counts {@code stop} accepts. Only counts cross the wire, not the keys' rows:
   * the check a rerun of finished work makes before anything else.
   */
  static Map<ClaimState, Long> count(
      JobPlan plan,
      Ledger ledger,
      Duration staleAfter,
      java.util.function.Predicate<Map<ClaimState, Long>> stop) {
    Map<ClaimState, Long> totals = new EnumMap<>(ClaimState.class);
    // The ledger answers one statement while the next batch's keys are made: on a rerun of
    // finished work the two take about as long, and this is most of what such a rerun does.
    List<CompletableFuture<Boolean>> answering = new ArrayList<>(1);
    inBatches(
        plan,
        false,
        COUNT_BATCH,
        (layer, batch) -> {
          if (!answering.isEmpty() && !Background.join(answering.remove(0))) {
            return false;
          }
          List<WorkKey> keys = List.copyOf(batch.keys);
          answering.add(
              Background.start(
                  "tilebeam-tile-states",
                  () -> countBatch(keys, ledger, staleAfter, stop, totals)));
          return true;
        });
    if (!answering.isEmpty()) {
      Background.join(answering.get(0));
    }
    return totals;
  }

  /** Receives one batch of a layer; returns false to stop. */
  private interface BatchHandler {
    boolean handle(LayerPlan layer, Batch batch);
  }

  /**
   * Hands the plan's tiles to {@code handler} {@code size} at a time, layer by layer, with their
   * keys (and their work when {@code withWork}), until it returns false.
   */
  private static void inBatches(JobPlan plan, boolean withWork, int size, BatchHandler handler) {
    boolean[] going = {true};
    for (LayerPlan layer : plan.layers()) {
      KeyHasher hasher = KeyHasher.of(layer.template());
      Batch batch = new Batch();
      layer
          .cover()
          .forEachTile(
              tile -> {
                if (going[0]) {
                  batch.add(withWork ? hasher.work(tile) : null, hasher.key(tile));
                  if (batch.size() == size) {
                    going[0] = handler.handle(layer, batch);
                    batch.clear();
                  }
                }
              });
      if (going[0] && batch.size() > 0) {
        going[0] = handler.handle(layer, batch);
      }
      if (!going[0]) {
        break;
      }
    }
  }

  /** Tiles and their keys, waiting for one statement. */
  private static final class Batch {
    final List<TileWork> work = new ArrayList<>(BATCH);
    final List<WorkKey> keys = new ArrayList<>(BATCH);

    void add(TileWork w, WorkKey key) {
      work.add(w);
      keys.add(key);
    }

    int size() {
      return keys.size();
    }

    void clear() {
      work.clear();
      keys.clear();
    }
  }

  private static boolean countBatch(
      List<WorkKey> keys,
      Ledger ledger,
      Duration staleAfter,
      java.util.function.Predicate<Map<ClaimState, Long>> stop,
      Map<ClaimState, Long> totals) {
    Map<ClaimState, Long> counts;
    try {
      counts = ledger.stateCounts(keys, staleAfter);
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot read tile states: " + e.getMessage(), e);
    }
    counts.forEach((state, n) -> totals.merge(state, n, Long::sum));
    return !stop.test(counts);
  }

  private static boolean flush(
      Batch batch,
      LayerPlan layer,
      Ledger ledger,
      Duration staleAfter,
      Visitor visitor,
      Map<ClaimState, Long> totals) {
    List<WorkKey> keys = batch.keys;
    Map<WorkKey, ClaimState> states;
    try {
      states = ledger == null ? Map.of() : ledger.states(keys, staleAfter);
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot read tile states: " + e.getMessage(), e);
    }
    boolean going = true;
    for (int i = 0; i < batch.size() && going; i++) {
      ClaimState state = states.getOrDefault(keys.get(i), ClaimState.PENDING);
      totals.merge(state, 1L, Long::sum);
      going = visitor.visit(layer, batch.work.get(i), keys.get(i), state);
    }
    return going;
  }
}
