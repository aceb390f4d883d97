package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerUnavailableException;
import io.tilebeam.io.ledger.RetryingLedger;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.ArchivePack;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.key.KeyHasher;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pack stage, run by {@code run} after the graph (and on a rerun that had no tile to make):
 * each archived layer's planned tiles are looked up in the ledger, and when all are completed their
 * staged bytes are packed into the layer's PMTiles archive ({@link ArchivePack}, which writes
 * nothing when the published archive already holds them). It runs on the launcher, not in the
 * graph, because it packs every completed tile of the layer, those of earlier runs included, and
 * must run even when a rerun has no tile to make.
 */
final class PackArchives {

  private static final Logger LOG = LoggerFactory.getLogger(PackArchives.class);

  /** Keys a ledger statement. */
  private static final int BATCH = 5000;

  /**
   * What the stage did for one archived layer.
   *
   * @param layer the layer
   * @param result what the pack did; null when the layer was not ready
   * @param notCompleted the layer's planned tiles not completed (failed, in flight or pending)
   */
  record Packed(String layer, ArchivePack.Result result, long notCompleted) {

    /** One line of the run's summary. */
    String summary() {
      if (result == null) {
        return String.format(
            "archive of layer %s not packed: %d planned tiles are not completed (failed, or"
                + " claimed by another run); the run that completes them packs it",
            layer, notCompleted);
      }
      if (result.outcome() == ArchivePack.Outcome.UNCHANGED) {
        return "archive " + result.uri() + " unchanged: it already holds these tiles";
      }
      return String.format(
          java.util.Locale.ROOT,
          "archive %s written: %d tiles, %d distinct contents, %.1f MB",
          result.uri(),
          result.tiles(),
          result.contents(),
          result.bytes() / 1e6);
    }
  }

  private PackArchives() {}

  /**
   * Packs every archived layer of the plan that is ready.
   *
   * @throws UncheckedIOException when an archive cannot be packed or published; the archive
   *     published before stays whole
   */
  static List<Packed> run(JobPlan plan, LedgerConfig ledger, String runId, RetryPolicy retry) {
    List<Packed> out = new ArrayList<>();
    for (LayerPlan layer : plan.layers()) {
      if (layer.archive() == null) {
        continue;
      }
      List<ArchivePack.Tile> tiles = new ArrayList<>();
      long missing = completedTiles(layer, ledger, retry, tiles);
      if (missing > 0) {
        out.add(new Packed(layer.name(), null, missing));
        continue;
      }
      long started = System.nanoTime();
      try (ArchivePack pack = ArchivePack.open(layer.archive(), runId, retry)) {
        ArchivePack.Result result = pack.pack(tiles);
        LOG.info(
            "Packed {} tiles of layer {} in {} ms: {}",
            tiles.size(),
            layer.name(),
            (System.nanoTime() - started) / 1_000_000,
            result.outcome());
        out.add(new Packed(layer.name(), result, 0));
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot pack " + layer.archive().uri() + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /**
   * Adds the layer's completed tiles to {@code into}, looked up {@value #BATCH} keys a statement;
   * returns how many planned tiles are not completed.
   */
  private static long completedTiles(
      LayerPlan layer, LedgerConfig config, RetryPolicy retry, List<ArchivePack.Tile> into) {
    KeyHasher hasher = KeyHasher.of(layer.template());
    long[] missing = {0};
    try (RetryingLedger ledger = RetryingLedger.open(config, retry)) {
      List<TileId> tiles = new ArrayList<>(BATCH);
      List<WorkKey> keys = new ArrayList<>(BATCH);
      Runnable flush =
          () -> {
            Map<WorkKey, Ledger.Completion> done = lookUp(ledger, keys);
            for (int i = 0; i < keys.size(); i++) {
              Ledger.Completion c = done.get(keys.get(i));
              TileId t = tiles.get(i);
              if (c == null) {
                missing[0]++;
              } else {
                into.add(
                    new ArchivePack.Tile(
                        keys.get(i).value(), t.z(), t.x(), t.y(), c.checksum(), c.features()));
              }
            }
            tiles.clear();
            keys.clear();
          };
      layer
          .cover()
          .forEachTile(
              tile -> {
                tiles.add(tile);
                keys.add(hasher.key(tile));
                if (keys.size() == BATCH) {
                  flush.run();
                }
              });
      if (!keys.isEmpty()) {
        flush.run();
      }
    }
    return missing[0];
  }

  private static Map<WorkKey, Ledger.Completion> lookUp(RetryingLedger ledger, List<WorkKey> keys) {
    try {
      return ledger.call("look up completed tiles", x -> x.completions(keys));
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot look up completed tiles: " + e.getMessage(), e);
    }
  }
}
