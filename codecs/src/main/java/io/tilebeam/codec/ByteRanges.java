package io.tilebeam.codec;

import java.io.IOException;
import java.io.Serializable;

/**
 * Bytes read by position: a local file, or one generation of an object in Google Cloud Storage,
 * read in ranges (a Cloud Optimized GeoTIFF's blocks are read so, never the whole object).
 */
public interface ByteRanges extends Serializable {

  /** The size in bytes. */
  long size() throws IOException;

  /**
   * Exactly {@code length} bytes from {@code offset}.
   *
   * @throws java.io.EOFException when the bytes end before them
   */
  byte[] read(long offset, int length) throws IOException;

  /** The location, for messages. */
  String describe();

  /** The local file these bytes are, or null when they are remote. */
  default java.nio.file.Path localPath() {
    return null;
  }
}
