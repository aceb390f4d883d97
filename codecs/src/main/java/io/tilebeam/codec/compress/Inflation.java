package io.tilebeam.codec.compress;

import java.io.IOException;

/** The read-back check both raster encodings share: compressed data inflates to its full size. */
public final class Inflation {

  private Inflation() {}

  /**
   * Checks that {@code length} bytes of {@code bytes} from {@code offset} are zlib data that
   * inflates to exactly {@code expected} bytes.
   *
   * @throws IOException naming {@code what} when they are not
   */
  public static void check(byte[] bytes, int offset, int length, long expected, String what)
      throws IOException {
    int n = Decompress.inflate(bytes, offset, length, new byte[(int) expected], what);
    if (n != expected) {
      throw new IOException(what + " inflates to " + n + " bytes, not " + expected);
    }
  }
}
