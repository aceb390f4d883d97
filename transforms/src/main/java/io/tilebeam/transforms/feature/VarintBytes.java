package io.tilebeam.transforms.feature;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte array written with unsigned LEB128 varints (the encoding of Beam's {@code VarInt}
 * and of Protocol Buffers), for codings built in memory and handed on in one piece: grid pieces
 * ({@code GridPiece}) and chunks of features ({@link FeatureTriples}).
 */
public final class VarintBytes {
  private byte[] buf;
  private int size;
  // Made at its final size (ofSize): its array is handed over whole, not copied.
  private final boolean handedOver;

  /** An empty array with room for about {@code expected} bytes. */
  public VarintBytes(int expected) {
    this(new byte[Math.max(16, expected)], false);
  }

  private VarintBytes(byte[] buf, boolean handedOver) {
    this.buf = buf;
    this.handedOver = handedOver;
  }

  /**
   * An empty array of exactly {@code size} bytes, for a coding whose size was counted first: once
   * filled, {@link #bytes} hands it over without a copy.
   */
  public static VarintBytes ofSize(int size) {
    return new VarintBytes(new byte[size], true);
  }

  /** Appends one byte, the low 8 bits of {@code b}. */
  public void write(int b) {
    if (size == buf.length) {
      buf = Arrays.copyOf(buf, buf.length * 2);
    }
    buf[size++] = (byte) b;
  }

  /** Appends {@code v} as an unsigned varint. */
  public void varint(long v) {
    while ((v & ~0x7FL) != 0) {
      write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    write((int) v);
  }

  /** Appends {@code v} zigzag-encoded, so that small negative numbers stay short. */
  public void zigzag(long v) {
    varint((v << 1) ^ (v >> 63));
  }

  /** Appends the length of {@code b} as a varint, then {@code b}. */
  public void lengthPrefixed(byte[] b) {
    varint(b.length);
    if (size + b.length > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + b.length));
    }
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  /** The number of bytes written. */
  public int size() {
    return size;
  }

  /** Forgets what was written, keeping the room. */
  public void clear() {
    size = 0;
  }

  /** Writes the bytes to {@code out} in one call. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, size);
  }

  /**
   * A copy of the bytes written; for an array made by {@link #ofSize} and filled exactly, the array
   * itself (its writer is done with it).
   */
  public byte[] bytes() {
    return handedOver && size == buf.length ? buf : Arrays.copyOf(buf, size);
  }
}
