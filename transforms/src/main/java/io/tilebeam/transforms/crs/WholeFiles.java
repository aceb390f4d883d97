package io.tilebeam.transforms.crs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files beside the jar that several processes may write at once (the EPSG copy, its index, the CRS
 * memo) are written whole or not at all: into a temporary file in the same directory, then moved
 * over the target, so a reader sees the old file or the new one.
 */
final class WholeFiles {

  /** What goes into the file. */
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private WholeFiles() {}

  /**
   * Writes {@code target} from {@code content}; the temporary file is removed on failure.
   *
   * @throws IOException when it cannot be written or moved
   */
  static void write(Path target, Content content) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(temp)) {
        content.writeTo(out);
      }
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
