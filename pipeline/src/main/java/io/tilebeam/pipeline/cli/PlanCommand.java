package io.tilebeam.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.ledger.ClaimState;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tilebeam plan}: every tile a run would consider, with its key and its state in the ledger.
 * Writes nothing but the {@code --tiles-out} file; a ledger that does not exist yet is not created,
 * and every tile is then pending.
 */
final class PlanCommand {

  private static final int BATCH = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private PlanCommand() {}

  static int run(
      JobPlan plan,
      String ledgerUrl,
      Path home,
      Duration staleAfter,
      Path tilesOut,
      PrintStream out)
      throws IOException {
    Map<ClaimState, Long> totals = new EnumMap<>(ClaimState.class);
    boolean haveLedger = LedgerHandle.exists(ledgerUrl, home);
    try (LedgerHandle handle = haveLedger ? LedgerHandle.open(ledgerUrl, home) : null;
        BufferedWriter writer = tilesOut == null ? null : Files.newBufferedWriter(tilesOut)) {
      Ledger ledger = null;
      if (handle != null) {
        LedgerSchema.migrate(handle.config());
        ledger = Ledger.open(handle.config());
      }
      try {
        for (LayerPlan layer : plan.layers()) {
          List<TileWork> batch = new ArrayList<>(BATCH);
          Ledger l = ledger;
          layer
              .tiling()
              .cover()
              .forEachTile(
                  tile -> {
                    batch.add(layer.template().withTile(tile));
                    if (batch.size() == BATCH) {
                      flush(batch, l, staleAfter, layer, writer, totals);
                    }
                  });
          flush(batch, l, staleAfter, layer, writer, totals);
        }
      } finally {
        if (ledger != null) {
          ledger.close();
        }
      }
    }
    StringBuilder line = new StringBuilder("plan: ");
    long all = totals.values().stream().mapToLong(Long::longValue).sum();
    line.append(all).append(" tiles");
    totals.forEach((s, n) -> line.append(", ").append(n).append(' ').append(s.label()));
    out.println(line);
    return ExitCode.OK;
  }

  private static void flush(
      List<TileWork> batch,
      Ledger ledger,
      Duration staleAfter,
      LayerPlan layer,
      BufferedWriter writer,
      Map<ClaimState, Long> totals) {
    if (batch.isEmpty()) {
      return;
    }
    List<WorkKey> keys = batch.stream().map(WorkKey::of).toList();
    Map<WorkKey, ClaimState> states;
    try {
      states = ledger == null ? Map.of() : ledger.states(keys, staleAfter);
    } catch (SQLException e) {
      throw new io.tilebeam.io.ledger.LedgerUnavailableException(
          "cannot read tile states: " + e.getMessage(), e);
    }
    for (int i = 0; i < batch.size(); i++) {
      TileWork w = batch.get(i);
      ClaimState state = states.getOrDefault(keys.get(i), ClaimState.PENDING);
      totals.merge(state, 1L, Long::sum);
      if (writer != null) {
        ObjectNode o = JSON.createObjectNode();
        o.put("layer", w.layer());
        o.put("tms", layer.tiling().tileMatrixSet().id());
        o.put("z", w.tile().z());
        o.put("x", w.tile().x());
        o.put("y", w.tile().y());
        o.put("key", keys.get(i).value());
        o.put("state", state.label());
        try {
          writer.write(o.toString());
          writer.newLine();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    batch.clear();
  }
}
