package io.tilebeam.io.sink;

import io.tilebeam.codec.pmtiles.PmtilesReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A local archive: written as a hidden temporary file beside the final name (so the rename stays in
 * one file system and {@code reap} removes one a killed pack left), moved over the final name
 * atomically, the directory forced.
 */
final class LocalArchiveTarget implements ArchiveTarget {

  /** The boundaries of a local publish, where a process can die. */
  enum Step {
    /** The archive was moved onto the final name; the directory is not forced yet. */
    MOVED,
    /** The directory was forced: the publish is durable. */
    DIRECTORY_FORCED
  }

  private final ArchiveSpec spec;
  private final StepListener steps;

  LocalArchiveTarget(ArchiveSpec spec, StepListener steps) {
    this.spec = spec;
    this.steps = steps;
  }

  @Override
  public String publishedKey() {
    Path archive = spec.localArchive();
    if (!Files.isRegularFile(archive)) {
      return null;
    }
    try (PmtilesReader reader = PmtilesReader.open(archive)) {
      return ArchivePack.packKeyOf(reader);
    } catch (IOException | RuntimeException e) {
      return null; // not an archive of ours: replaced by the pack
    }
  }

  @Override
  public Path newTempFile(String suffix) throws IOException {
    Path dir = spec.localArchive().getParent();
    Files.createDirectories(dir);
    return Files.createTempFile(dir, LocalTileSink.TEMP_PREFIX + spec.archiveName() + ".", suffix);
  }

  @Override
  public ArchivePack.Outcome publish(Path archive, String packKey, String checksum)
      throws IOException {
    Path target = spec.localArchive();
    AtomicFiles.move(archive, target);
    steps.reached(Step.MOVED);
    AtomicFiles.forceDirectory(target.getParent());
    steps.reached(Step.DIRECTORY_FORCED);
    return ArchivePack.Outcome.WRITTEN;
  }
}
