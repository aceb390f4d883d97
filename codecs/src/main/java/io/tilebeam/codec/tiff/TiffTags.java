package io.tilebeam.codec.tiff;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The entries of one TIFF image file directory that tilebeam reads, each checked against the file
 * before anything is allocated for it: a directory's entry count, and every value array's length
 * and position, must fit in the bytes the file has, so a header that claims more costs nothing.
 *
 * <p>Integers of every width come as {@code long}s, rationals and floats as {@code double}s, ASCII
 * as text; tags of other types, and tags not asked for, are skipped unread.
 */
final class TiffTags {

  private static final int ASCII = 2;
  private static final int RATIONAL = 5;
  private static final int FLOAT = 11;
  private static final int DOUBLE = 12;

  /** More entries than a directory can hold (its count is 16 bits in classic TIFF). */
  private static final long MOST_ENTRIES = 65_535;

  private final Map<Integer, Object> values;

  private TiffTags(Map<Integer, Object> values) {
    this.values = values;
  }

  /**
   * A directory's entries and the offset of the next directory (0 for none).
   *
   * @param tags the numbers of the tags read; others are skipped
   */
  record Read(TiffTags tags, long next) {}

  /**
   * Reads the directory at {@code at} of a TIFF of {@code size} bytes.
   *
   * @throws IOException when the directory, or a value it points at, lies outside the file
   */
  static Read read(RangeReader file, ByteOrder order, boolean big, long at, Set<Integer> wanted)
      throws IOException {
    long size = file.size();
    int countSize = big ? 8 : 2;
    int entrySize = big ? 20 : 12;
    int nextSize = big ? 8 : 4;
    within(at, countSize, size, "a TIFF directory");
    ByteBuffer countBuffer = ByteBuffer.wrap(file.read(at, countSize)).order(order);
    long count = big ? countBuffer.getLong(0) : countBuffer.getShort(0) & 0xFFFF;
    if (count < 0 || count > MOST_ENTRIES) {
      throw new IOException("a TIFF directory of " + count + " entries");
    }
    long length = count * entrySize + nextSize;
    within(at + countSize, length, size, "a TIFF directory of " + count + " entries");
    ByteBuffer entries = ByteBuffer.wrap(file.read(at + countSize, (int) length)).order(order);
    Map<Integer, Object> out = new HashMap<>();
    for (int i = 0; i < count; i++) {
      int base = i * entrySize;
      int tag = entries.getShort(base) & 0xFFFF;
      int type = entries.getShort(base + 2) & 0xFFFF;
      long n = big ? entries.getLong(base + 4) : entries.getInt(base + 4) & 0xFFFFFFFFL;
      int unit = unit(type);
      if (unit == 0 || !wanted.contains(tag)) {
        continue;
      }
      // Values can only be in the file: a count larger than the file's bytes is a lie.
      if (n < 0 || n > size / unit) {
        throw new IOException("TIFF tag " + tag + " claims " + n + " values in a file of " + size);
      }
      long bytes = n * unit;
      int valueAt = base + (big ? 12 : 8);
      ByteBuffer buffer;
      int from;
      if (bytes <= (big ? 8 : 4)) {
        buffer = entries;
        from = valueAt;
      } else {
        long offset = big ? entries.getLong(valueAt) : entries.getInt(valueAt) & 0xFFFFFFFFL;
        within(offset, bytes, size, "the values of TIFF tag " + tag);
        buffer = ByteBuffer.wrap(file.read(offset, (int) bytes)).order(order);
        from = 0;
      }
      out.put(tag, decode(buffer, from, (int) n, type));
    }
    long next =
        big
            ? entries.getLong((int) count * entrySize)
            : entries.getInt((int) count * entrySize) & 0xFFFFFFFFL;
    return new Read(new TiffTags(out), next);
  }

  /**
   * Checks that {@code length} bytes at {@code at} lie in a file of {@code size} bytes, without
   * overflowing whatever the numbers are.
   */
  static void within(long at, long length, long size, String what) throws IOException {
    if (at < 0
        || length < 0
        || at > size
        || length > size - at
        || length > Integer.MAX_VALUE - 16) {
      throw new IOException(
          "the file ends at "
              + size
              + " bytes, before "
              + what
              + " ("
              + Long.toUnsignedString(length)
              + " bytes at byte "
              + Long.toUnsignedString(at)
              + ")");
    }
  }

  /** Bytes of one value of a type read here, or 0 for a type skipped. */
  private static int unit(int type) {
    return switch (type) {
      case 1, ASCII, 6, 7 -> 1; // BYTE, ASCII, SBYTE, UNDEFINED
      case 3, 8 -> 2; // SHORT, SSHORT
      case 4, 9, 13, FLOAT -> 4; // LONG, SLONG, IFD, FLOAT
      case RATIONAL, DOUBLE, 16, 17, 18 -> 8; // RATIONAL, DOUBLE, LONG8, SLONG8, IFD8
      default -> 0;
    };
  }

  private static Object decode(ByteBuffer b, int from, int n, int type) {
    if (type == ASCII) {
      byte[] text = new byte[n];
      b.get(from, text);
      int end = 0;
      while (end < n && text[end] != 0) {
        end++;
      }
      return new String(text, 0, end, StandardCharsets.ISO_8859_1);
    }
    if (type == 1 || type == 6 || type == 7) {
      byte[] out = new byte[n];
      b.get(from, out);
      return out;
    }
    if (type == RATIONAL || type == FLOAT || type == DOUBLE) {
      double[] out = new double[n];
      for (int k = 0; k < n; k++) {
        out[k] =
            switch (type) {
              case FLOAT -> b.getFloat(from + 4 * k);
              case DOUBLE -> b.getDouble(from + 8 * k);
              default -> {
                long num = b.getInt(from + 8 * k) & 0xFFFFFFFFL;
                long den = b.getInt(from + 8 * k + 4) & 0xFFFFFFFFL;
                yield (double) num / den;
              }
            };
      }
      return out;
    }
    long[] out = new long[n];
    for (int k = 0; k < n; k++) {
      out[k] =
          switch (type) {
            case 3 -> b.getShort(from + 2 * k) & 0xFFFF;
            case 8 -> b.getShort(from + 2 * k);
            case 4, 13 -> b.getInt(from + 4 * k) & 0xFFFFFFFFL;
            case 9 -> b.getInt(from + 4 * k);
            default -> b.getLong(from + 8 * k);
          };
    }
    return out;
  }

  /** Whether the directory has {@code tag} (of a type read here). */
  boolean has(int tag) {
    return values.containsKey(tag);
  }

  /** The integers of {@code tag} (bytes unsigned), or null when it is absent or not integers. */
  long[] numbers(int tag) {
    Object v = values.get(tag);
    if (v instanceof byte[] bytes) {
      long[] out = new long[bytes.length];
      for (int i = 0; i < bytes.length; i++) {
        out[i] = bytes[i] & 0xFF;
      }
      return out;
    }
    return v instanceof long[] numbers ? numbers : null;
  }

  /** The first integer of {@code tag}, or {@code otherwise}. */
  long number(int tag, long otherwise) {
    long[] v = numbers(tag);
    return v == null || v.length == 0 ? otherwise : v[0];
  }

  /** The real numbers of {@code tag}, or null when it is absent or not real numbers. */
  double[] reals(int tag) {
    return values.get(tag) instanceof double[] v ? v : null;
  }

  /** The text of {@code tag} (up to its first NUL), or null when it is absent or not text. */
  String text(int tag) {
    return values.get(tag) instanceof String s ? s : null;
  }

  /** The bytes of {@code tag} (of BYTE or UNDEFINED type), or null. */
  byte[] bytes(int tag) {
    return values.get(tag) instanceof byte[] v ? v : null;
  }
}
