package io.tilebeam.pipeline.cli;

import io.tilebeam.io.ledger.LedgerAdmin;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.io.ledger.LedgerUnavailableException;
import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.DeadLetters;
import io.tilebeam.io.sink.LocalTileSink;
import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.sink.PublishedTiles;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code tilebeam reap}: releases claims that no live run holds — every claim of a named dead run
 * ({@code --run}) at once, or every claim older than {@code --older-than} — and, given a job,
 * deletes the temporary files a killed run left in its output directories.
 */
final class ReapCommand {

  private ReapCommand() {}

  static int run(
      String ledgerUrl, Path home, String runId, Duration olderThan, JobPlan plan, PrintStream out)
      throws IOException {
    if (LedgerHandle.exists(ledgerUrl, home)) {
      try (LedgerHandle handle = LedgerHandle.open(ledgerUrl, home)) {
        LedgerSchema.migrate(handle.config());
        try (LedgerAdmin ledger = LedgerAdmin.open(handle.config())) {
          if (runId != null) {
            out.println("released " + ledger.releaseRun(runId) + " claims of run " + runId);
          } else {
            out.println(
                "released " + ledger.releaseStale(olderThan) + " claims older than " + olderThan);
          }
        } catch (SQLException e) {
          throw new LedgerUnavailableException(
              "cannot reap in the ledger at " + handle.config().maskedUrl() + ": " + e.getMessage(),
              e);
        }
      }
    } else {
      out.println("no ledger yet in " + home.toAbsolutePath() + ": no claims to release");
    }
    if (plan != null) {
      out.println(
          "deleted " + deleteOrphans(plan, olderThan) + " orphaned temporary files or objects");
    }
    return ExitCode.OK;
  }

  /**
   * Temporary files older than the window cannot belong to a live attempt; a younger one may, so it
   * is left alone even with {@code --run}.
   */
  private static long deleteOrphans(JobPlan plan, Duration olderThan) throws IOException {
    Instant cutoff = Instant.now().minus(olderThan);
    long deleted = 0;
    for (LayerPlan layer : plan.layers()) {
      if (layer.archive() != null) {
        deleted += deleteArchiveOrphans(layer, cutoff);
      }
      OutputLocation location = layer.publish().location();
      if (location instanceof OutputLocation.Gcs) {
        try (PublishedTiles published = new PublishedTiles()) {
          deleted += published.deleteOrphanObjects(layer.publish(), cutoff);
        }
        continue;
      }
      if (location instanceof OutputLocation.S3) {
        // Single PUTs leave nothing behind; an archive's upload in parts may.
        continue;
      }
      if (!(location instanceof OutputLocation.Local local)) {
        continue; // a PostGIS table is written in transactions: nothing is left behind
      }
      Path output = local.root();
      // The layer's tiles, and its dead-letter file, are both replaced through temporary files.
      Path records = layer.archive() == null ? output : layer.archive().localRoot();
      for (Path root :
          List.of(
              output.resolve(layer.name()),
              records.resolve(DeadLetters.FAILED_DIR).resolve(layer.name()))) {
        if (!Files.isDirectory(root)) {
          continue;
        }
        List<Path> temps;
        try (Stream<Path> files = Files.walk(root)) {
          temps =
              files
                  .filter(p -> p.getFileName().toString().startsWith(LocalTileSink.TEMP_PREFIX))
                  .toList();
        }
        deleted += deleteOlder(temps, cutoff);
      }
    }
    return deleted;
  }

  private static long deleteOlder(List<Path> temps, Instant cutoff) throws IOException {
    long deleted = 0;
    for (Path p : temps) {
      if (Files.getLastModifiedTime(p).toInstant().isBefore(cutoff) && Files.deleteIfExists(p)) {
        deleted++;
      }
    }
    return deleted;
  }

  /**
   * What a killed pack leaves: beside a local archive, its hidden spill and temporary archive;
   * under a GCS bucket's {@code _tmp/}, its temporary object; in an S3 bucket, its unfinished
   * upload in parts.
   */
  private static long deleteArchiveOrphans(LayerPlan layer, Instant cutoff) throws IOException {
    ArchiveSpec archive = layer.archive();
    if (archive.location() instanceof OutputLocation.Gcs
        || archive.location() instanceof OutputLocation.S3) {
      PublishSpec root =
          new PublishSpec(
              archive.location(), archive.tiles(), layer.publish().targetCrs(), archive.stores());
      try (PublishedTiles published = new PublishedTiles()) {
        return archive.location() instanceof OutputLocation.S3
            ? published.abortOrphanUploads(root, cutoff)
            : published.deleteOrphanObjects(root, cutoff);
      }
    }
    Path dir = archive.localRoot();
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    String prefix = LocalTileSink.TEMP_PREFIX + archive.archiveName() + ".";
    try (Stream<Path> files = Files.list(dir)) {
      return deleteOlder(
          files.filter(p -> p.getFileName().toString().startsWith(prefix)).toList(), cutoff);
    }
  }
}
