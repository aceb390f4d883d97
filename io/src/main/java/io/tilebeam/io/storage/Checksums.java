package io.tilebeam.io.storage;

import io.tilebeam.transforms.digest.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/** SHA-256 checksums in the form the ledger records: {@code sha256:<hex>}. */
public final class Checksums {

  private Checksums() {}

  /** The checksum of {@code bytes}. */
  public static String of(byte[] bytes) {
    return "sha256:" + HexFormat.of().formatHex(Sha256.of(bytes));
  }

  /**
   * The checksum of a file, streamed.
   *
   * @throws IOException when the file cannot be read
   */
  public static String of(Path file) throws IOException {
    MessageDigest d = Sha256.create();
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        d.update(buf, 0, n);
      }
    }
    return "sha256:" + HexFormat.of().formatHex(d.digest());
  }
}
