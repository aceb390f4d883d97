package io.tilebeam.transforms.digest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, the one digest tilebeam uses for keys, identities and checksums. */
public final class Sha256 {

  private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(Sha256::create);

  private Sha256() {}

  /** A fresh digest, for streaming input. */
  public static MessageDigest create() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The digest of {@code bytes}. */
  public static byte[] of(byte[] bytes) {
    return DIGEST.get().digest(bytes);
  }

  /** The lower-case hex digest of {@code text} in UTF-8. */
  public static String hex(String text) {
    return HexFormat.of().formatHex(of(text.getBytes(StandardCharsets.UTF_8)));
  }
}
