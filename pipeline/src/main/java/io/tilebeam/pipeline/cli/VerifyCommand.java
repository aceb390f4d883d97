package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.LedgerAdmin;
import io.tilebeam.io.ledger.LedgerAdmin.CompletedRow;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.ledger.LedgerUnavailableException;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.sink.PublishedTiles;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tilebeam verify}: every completed row of the job's namespace has its output, with the
 * recorded checksum. {@code --repair} deletes the rows whose output is missing or different, so
 * that the next run rebuilds them: the ledger row goes first, because a missing row costs a rebuild
 * while a stale row leaves a hole.
 */
final class VerifyCommand {

  private VerifyCommand() {}

  static int run(String ledgerUrl, Path home, JobPlan plan, boolean repair, PrintStream out)
      throws IOException {
    if (!LedgerHandle.exists(ledgerUrl, home)) {
      out.println("no ledger yet in " + home.toAbsolutePath() + ": nothing to verify");
      return ExitCode.OK;
    }
    try (LedgerHandle handle = LedgerHandle.open(ledgerUrl, home)) {
      LedgerSchema.migrate(handle.config());
      try (LedgerAdmin ledger = LedgerAdmin.open(handle.config());
          PublishedTiles published = new PublishedTiles()) {
        Map<String, PublishSpec> outputs = new HashMap<>();
        plan.layers().forEach(l -> outputs.put(l.name(), l.publish()));
        List<CompletedRow> rows = ledger.completed(plan.namespace());
        List<WorkKey> bad = new ArrayList<>();
        for (CompletedRow row : rows) {
          String problem =
              row.outputUri() == null
                  ? "no output recorded"
                  : published.problem(
                      outputs.get(row.layer()),
                      row.outputUri(),
                      row.checksum(),
                      TileId.of(row.z(), row.x(), row.y()));
          if (problem != null) {
            bad.add(row.key());
            out.println(
                row.layer()
                    + " "
                    + row.z()
                    + "/"
                    + row.x()
                    + "/"
                    + row.y()
                    + " "
                    + row.key()
                    + ": "
                    + problem);
          }
        }
        out.println(
            "verify: "
                + rows.size()
                + " completed tiles, "
                + (rows.size() - bad.size())
                + " ok, "
                + bad.size()
                + " bad");
        if (bad.isEmpty()) {
          return ExitCode.OK;
        }
        if (!repair) {
          return ExitCode.TILES_FAILED;
        }
        out.println(
            "repair: removed " + ledger.forget(bad) + " ledger rows; the next run rebuilds them");
        return ExitCode.OK;
      } catch (SQLException e) {
        throw new LedgerUnavailableException(
            "cannot verify against the ledger at "
                + handle.config().maskedUrl()
                + ": "
                + e.getMessage(),
            e);
      }
    }
  }
}
