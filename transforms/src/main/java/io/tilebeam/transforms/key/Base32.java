package io.tilebeam.transforms.key;

/** RFC 4648 base32 in lower case without padding: file-name and URL safe, case-insensitive. */
final class Base32 {

  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

  private Base32() {}

  static String encode(byte[] bytes) {
    StringBuilder out = new StringBuilder((bytes.length * 8 + 4) / 5);
    int buffer = 0;
    int bits = 0;
    for (byte b : bytes) {
      buffer = (buffer << 8) | (b & 0xff);
      bits += 8;
      while (bits >= 5) {
        out.append(ALPHABET[(buffer >> (bits - 5)) & 31]);
        bits -= 5;
      }
    }
    if (bits > 0) {
      out.append(ALPHABET[(buffer << (5 - bits)) & 31]);
    }
    return out.toString();
  }
}
