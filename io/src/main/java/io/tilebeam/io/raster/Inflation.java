package io.tilebeam.io.raster;

import java.io.IOException;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** The read-back check both raster encodings share: compressed data inflates to its full size. */
final class Inflation {

  private Inflation() {}

  /**
   * Checks that {@code length} bytes of {@code bytes} from {@code offset} are zlib data that
   * inflates to exactly {@code expected} bytes.
   *
   * @throws IOException naming {@code what} when they are not
   */
  static void check(byte[] bytes, int offset, int length, long expected, String what)
      throws IOException {
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(bytes, offset, length);
      byte[] out = new byte[(int) expected];
      int n = 0;
      while (n < out.length && !inflater.finished()) {
        int got = inflater.inflate(out, n, out.length - n);
        if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n != expected) {
        throw new IOException(what + " inflates to " + n + " bytes, not " + expected);
      }
    } catch (DataFormatException e) {
      throw new IOException(what + " is not deflate data: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }
}
