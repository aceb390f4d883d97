package io.tilebeam.io.sink;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.Set;

/**
 * Which storage errors no retry clears: a directory the process may not write, a read-only file
 * system, a file where a directory must be. Such an error fails the tiles it meets, recorded with
 * their reason, and the other tiles go on; any other I/O error (a full disk, an I/O fault) fails
 * the bundle, for the runner to retry and, if it persists, for the run to fail.
 */
final class StorageErrors {

  /** The kernel's words for the permanent errors that reach Java as a plain FileSystemException. */
  private static final Set<String> PERMANENT_REASONS =
      Set.of(
          "operation not permitted",
          "permission denied",
          "read-only file system",
          "not a directory",
          "is a directory",
          "file name too long",
          "too many levels of symbolic links");

  private StorageErrors() {}

  /** Whether {@code e} will fail again however often the same write is retried. */
  static boolean permanent(IOException e) {
    if (e instanceof AccessDeniedException
        || e instanceof NotDirectoryException
        // A file where a tile's directory goes, or a directory where the tile goes.
        || e instanceof FileAlreadyExistsException
        || e instanceof DirectoryNotEmptyException) {
      return true;
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return PERMANENT_REASONS.contains(fs.getReason().toLowerCase(Locale.ROOT));
    }
    return false;
  }

  /** The error in one line, in words: what failed, where. */
  static String describe(IOException e) {
    if (!(e instanceof FileSystemException fs)) {
      return String.valueOf(e.getMessage());
    }
    String what;
    if (e instanceof FileAlreadyExistsException) {
      what = "a file stands where a directory must be made";
    } else if (e instanceof DirectoryNotEmptyException) {
      what = "a directory stands where the tile must go";
    } else if (e instanceof AccessDeniedException) {
      what = "permission denied";
    } else if (fs.getReason() != null) {
      what = fs.getReason();
    } else {
      what = e.getClass().getSimpleName();
    }
    return what + ": " + fs.getFile();
  }
}
