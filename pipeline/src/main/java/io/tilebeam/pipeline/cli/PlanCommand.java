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
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code tilebeam plan}: every tile a run would consider, with its key and its state in the ledger.
 * Writes nothing but the {@code --tiles-out} file; a ledger that does not exist yet is not created,
 * and every tile is then pending.
 */
final class PlanCommand {

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
        totals.putAll(
            TileStates.walk(
                plan,
                ledger,
                staleAfter,
                (layer, work, key, state) -> {
                  write(writer, layer, work, key, state);
                  return true;
                }));
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

  private static void write(
      BufferedWriter writer, LayerPlan layer, TileWork w, WorkKey key, ClaimState state) {
    if (writer == null) {
      return;
    }
    ObjectNode o = JSON.createObjectNode();
    o.put("layer", w.layer());
    o.put("tms", layer.tiling().tileMatrixSet().id());
    o.put("z", w.tile().z());
    o.put("x", w.tile().x());
    o.put("y", w.tile().y());
    o.put("key", key.value());
    o.put("state", state.label());
    try {
      writer.write(o.toString());
      writer.newLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
