package io.tilebeam.io.sink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The steps of an atomic file publish: durable write, atomic rename, durable rename. */
final class AtomicFiles {

  private AtomicFiles() {}

  /** Writes a new file and forces it to disk. */
  static void write(Path temp, byte[] bytes) throws IOException {
    write(temp, bytes, true);
  }

  /** Writes a new file without forcing it; {@link #force} makes it durable later. */
  static void writeUnforced(Path temp, byte[] bytes) throws IOException {
    write(temp, bytes, false);
  }

  private static void write(Path temp, byte[] bytes, boolean force) throws IOException {
    try (FileChannel ch =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      if (force) {
        ch.force(true);
      }
    }
  }

  /** Forces a written file's content and size to disk. */
  static void force(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  /** Renames atomically onto the target, replacing it; refuses where that is not possible. */
  static void move(Path temp, Path target) throws IOException {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException(
          "the file system of " + target + " cannot move atomically; refusing to publish", e);
    }
  }

  /** Makes the rename durable: without it a crash may forget the new directory entry. */
  static void forceDirectory(Path dir) throws IOException {
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
