package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.PublishResult.Outcome;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
      write(temp, bytes);
      validate(temp, checksum, featureCount);
      move(temp, target);
      forceDirectory(dir);
    } finally {
      Files.deleteIfExists(temp);
    }
    return new PublishResult(
        key, work, target.toUri().toString(), checksum, featureCount, Outcome.WRITTEN);
  }

  private static void write(Path temp, byte[] bytes) throws IOException {
    try (FileChannel ch =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
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

  private static void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException(
          "the file system of " + target + " cannot move atomically; refusing to publish", e);
    }
  }

  /** Makes the rename durable: without it a crash may forget the new directory entry. */
  private static void forceDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems (and all of Windows) refuse to open a directory; the rename still holds.
      if (!System.getProperty("os.name", "").startsWith("Windows")) {
        throw e;
      }
    }
  }
}
