package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.LedgerAdmin;
import io.tilebeam.io.ledger.LedgerAdmin.StatusRow;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.ledger.LedgerUnavailableException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * {@code tilebeam status}: per layer and zoom, how many tiles are completed, failed, in flight and
 * stale, and the recent runs. Reads only; works while a run is going (against a shared ledger).
 */
final class StatusCommand {

  private static final int RECENT_RUNS = 10;

  private StatusCommand() {}

  static int run(
      String ledgerUrl, Path home, String namespace, Duration staleAfter, PrintStream out) {
    if (!LedgerHandle.exists(ledgerUrl, home)) {
      out.println("no ledger yet in " + home.toAbsolutePath() + ": nothing has run");
      return ExitCode.OK;
    }
    try (LedgerHandle handle = LedgerHandle.open(ledgerUrl, home)) {
      LedgerSchema.migrate(handle.config());
      try (LedgerAdmin ledger = LedgerAdmin.open(handle.config())) {
        List<StatusRow> rows = ledger.status(namespace, staleAfter);
        out.printf(
            "%-24s %-20s %4s %10s %8s %10s %8s%n",
            "namespace", "layer", "z", "completed", "failed", "in-flight", "stale");
        for (StatusRow r : rows) {
          out.printf(
              "%-24s %-20s %4d %10d %8d %10d %8d%n",
              r.namespace(), r.layer(), r.z(), r.completed(), r.failed(), r.inFlight(), r.stale());
        }
        if (rows.isEmpty()) {
          out.println("(no tiles)");
        }
        out.println();
        out.println("recent runs:");
        for (List<String> run : ledger.recentRuns(RECENT_RUNS)) {
          out.println("  " + String.join("  ", run.subList(0, 4)) + "  " + run.get(4));
        }
      } catch (SQLException e) {
        throw new LedgerUnavailableException(
            "cannot read the ledger at " + handle.config().maskedUrl() + ": " + e.getMessage(), e);
      }
    }
    return ExitCode.OK;
  }
}
