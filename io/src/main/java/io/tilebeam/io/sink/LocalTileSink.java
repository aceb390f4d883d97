package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.PublishResult.Outcome;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Publishes tiles to a local or NFS directory as {@code <root>/<layer>/<z>/<x>/<y>.<ext>}.
 *
 * <p>Each attempt writes a hidden temporary file with a unique attempt id in the final directory,
 * forces it to disk, reads it back to validate it (checksum and feature count), and then moves it
 * atomically onto the final name and forces the directory. A reader therefore sees the old file or
 * the new one, never a part; a temporary file never appears under a final name. When the final file
 * already holds the same bytes, it is left alone.
 */
public final class LocalTileSink {

  /** Prefix of temporary files; {@code reap} removes orphans with it. */
  public static final String TEMP_PREFIX = ".tilebeam-";

  private final Path root;
  private final TileFormat format;

  /** A sink writing below {@code root} in {@code format}. */
  public LocalTileSink(Path root, TileFormat format) {
    this.root = root;
    this.format = format;
  }

  /** The final path of a tile. */
  public Path finalPath(TileWork work) {
    return root.resolve(work.layer())
        .resolve(Integer.toString(work.tile().z()))
        .resolve(Long.toString(work.tile().x()))
        .resolve(work.tile().y() + "." + format.extension());
  }

  /**
   * Publishes the tile's bytes.
   *
   * @throws IOException when writing, validating or moving fails; the final file is then untouched
   */
  public PublishResult publish(WorkKey key, TileWork work, byte[] bytes, long featureCount)
      throws IOException {
    Path target = finalPath(work);
    Path dir = target.getParent();
    Files.createDirectories(dir);
    String checksum = Checksums.of(bytes);
    if (Files.isRegularFile(target) && checksum.equals(Checksums.of(target))) {
      return new PublishResult(
          key, work, target.toUri().toString(), checksum, featureCount, Outcome.UNCHANGED);
    }
    Path temp = dir.resolve(TEMP_PREFIX + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      AtomicFiles.write(temp, bytes);
      validate(temp, checksum, featureCount);
      AtomicFiles.move(temp, target);
      AtomicFiles.forceDirectory(dir);
    } finally {
      Files.deleteIfExists(temp);
    }
    return new PublishResult(
        key, work, target.toUri().toString(), checksum, featureCount, Outcome.WRITTEN);
  }

  private void validate(Path temp, String checksum, long featureCount) throws IOException {
    byte[] written = Files.readAllBytes(temp);
    String actual = Checksums.of(written);
    if (!actual.equals(checksum)) {
      throw new IOException(
          "temporary file " + temp + " reads back as " + actual + ", wrote " + checksum);
    }
    long parsed = format.countFeatures(written);
    if (parsed != featureCount) {
      throw new IOException(
          "temporary file "
              + temp
              + " parses to "
              + parsed
              + " features, expected "
              + featureCount);
    }
  }
}
