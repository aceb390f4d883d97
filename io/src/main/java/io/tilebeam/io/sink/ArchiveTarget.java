package io.tilebeam.io.sink;

import java.io.IOException;
import java.nio.file.Path;

/** Where a packed archive is published: a local file, or a GCS object. */
interface ArchiveTarget {

  /**
   * The pack key of the archive published now, or null when there is none (or it cannot be read, in
   * which case a new pack replaces it).
   */
  String publishedKey() throws IOException;

  /** A new temporary file for the pack's own use, where the archive's publish can reach it. */
  Path newTempFile(String suffix) throws IOException;

  /**
   * Publishes the checked archive at {@code archive} (whose bytes have {@code checksum}) under the
   * final name, atomically; the temporary file is gone afterwards.
   */
  ArchivePack.Outcome publish(Path archive, String packKey, String checksum) throws IOException;
}
