package io.tilebeam.codec.mvt;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The few Protocol Buffers wire-format pieces a vector tile needs: varints, zigzag, 64-bit fixed
 * values and length-delimited fields, written in the order they are given (so bytes are fixed), and
 * a reader that walks fields. Hand-written because the one MVT library in the verified stack is
 * built for Java 21 and tilebeam builds for Java 17.
 */
public final class Protobuf {

  static final int VARINT = 0;
  static final int FIXED64 = 1;
  public static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  private Protobuf() {}

  /** Appends fields to a byte buffer. */
  public static final class Writer {
    // Bytes written so far: buf[0, size). Not a ByteArrayOutputStream, whose every byte is a
    // synchronized call: a tile's geometries are millions of varints.
    private byte[] buf = new byte[256];
    private int size;

    /** Appends field {@code field} as a varint. */
    public Writer varintField(int field, long value) {
      tag(field, VARINT);
      varint(value);
      return this;
    }

    /** Appends field {@code field} as eight little-endian bytes. */
    public Writer fixed64Field(int field, long bits) {
      tag(field, FIXED64);
      room(8);
      for (int i = 0; i < 8; i++) {
        buf[size++] = (byte) (bits >>> (8 * i));
      }
      return this;
    }

    /** Appends field {@code field} as length-delimited bytes. */
    public Writer bytesField(int field, byte[] bytes) {
      tag(field, LENGTH_DELIMITED);
      varint(bytes.length);
      room(bytes.length);
      System.arraycopy(bytes, 0, buf, size, bytes.length);
      size += bytes.length;
      return this;
    }

    /**
     * Appends field {@code field} as length-delimited bytes: what {@code message} has written so
     * far, copied once (as {@link #bytesField} of its {@link #toByteArray}, without that copy).
     */
    public Writer messageField(int field, Writer message) {
      tag(field, LENGTH_DELIMITED);
      varint(message.size);
      room(message.size);
      System.arraycopy(message.buf, 0, buf, size, message.size);
      size += message.size;
      return this;
    }

    /** Forgets what was written, keeping the room: for the next message of a kind. */
    public Writer clear() {
      size = 0;
      return this;
    }

    /** Appends field {@code field} as a UTF-8 string. */
    public Writer stringField(int field, String value) {
      return bytesField(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A packed repeated field of unsigned 32-bit values; nothing when empty. */
    public Writer packedField(int field, int[] values, int count) {
      if (count == 0) {
        return this;
      }
      long length = 0;
      for (int i = 0; i < count; i++) {
        length += varintSize(values[i] & 0xffffffffL);
      }
      tag(field, LENGTH_DELIMITED);
      varint(length);
      for (int i = 0; i < count; i++) {
        varint(values[i] & 0xffffffffL);
      }
      return this;
    }

    /** The bytes written so far. */
    public byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }

    private void tag(int field, int wireType) {
      varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
      room(10);
      long v = value;
      while ((v & ~0x7fL) != 0) {
        buf[size++] = (byte) ((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      buf[size++] = (byte) v;
    }

    /** The bytes of {@code value} as a varint: 1 to 10. */
    private static int varintSize(long value) {
      return Math.max(1, (70 - Long.numberOfLeadingZeros(value)) / 7);
    }

    /** Room for {@code bytes} more. */
    private void room(int bytes) {
      if (bytes > buf.length - size) {
        long needed = (long) size + bytes;
        if (needed > Integer.MAX_VALUE - 16) {
          throw new IllegalStateException("protobuf message over 2 GB");
        }
        buf =
            Arrays.copyOf(
                buf, (int) Math.max(needed, Math.min(2L * buf.length, Integer.MAX_VALUE - 16)));
      }
    }
  }

  /** Walks the fields of one message. */
  public static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;
    private int field;
    private int wireType;

    /** A reader of the message that is all of {@code buf}. */
    public Reader(byte[] buf) {
      this(buf, 0, buf.length);
    }

    private Reader(byte[] buf, int from, int to) {
      this.buf = buf;
      this.pos = from;
      this.end = to;
    }

    /** Moves to the next field; false at the end of the message. */
    public boolean next() throws IOException {
      if (pos >= end) {
        return false;
      }
      long key = varint();
      field = (int) (key >>> 3);
      wireType = (int) (key & 7);
      if (field == 0) {
        throw new IOException("field number 0 at byte " + pos);
      }
      return true;
    }

    /** Whether bytes are left, for packed values read one by one. */
    public boolean hasMore() {
      return pos < end;
    }

    /** The current field's number. */
    public int field() {
      return field;
    }

    /** The current field's wire type. */
    public int wireType() {
      return wireType;
    }

    /** Reads a varint value of the current field. */
    public long varint() throws IOException {
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw new IOException("truncated varint");
        }
        byte b = buf[pos++];
        result |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return result;
        }
      }
      throw new IOException("varint longer than 10 bytes");
    }

    /** The current length-delimited field as a reader of its own. */
    public Reader message() throws IOException {
      int length = length();
      Reader r = new Reader(buf, pos, pos + length);
      pos += length;
      return r;
    }

    /** The current length-delimited field as UTF-8 text. */
    public String string() throws IOException {
      int length = length();
      String s = new String(buf, pos, length, java.nio.charset.StandardCharsets.UTF_8);
      pos += length;
      return s;
    }

    /** Skips the current field's value. */
    public void skip() throws IOException {
      switch (wireType) {
        case VARINT -> varint();
        case FIXED64 -> advance(8);
        case LENGTH_DELIMITED -> advance(length());
        case FIXED32 -> advance(4);
        default -> throw new IOException("unsupported wire type " + wireType);
      }
    }

    private int length() throws IOException {
      long length = varint();
      if (length < 0 || length > end - pos) {
        throw new IOException("length " + length + " runs past the message end");
      }
      return (int) length;
    }

    private void advance(int n) throws IOException {
      if (n > end - pos) {
        throw new IOException("truncated field");
      }
      pos += n;
    }
  }

  /** Zigzag encoding of a signed value, as MVT geometry parameters use. */
  static int zigzag(int n) {
    return (n << 1) ^ (n >> 31);
  }

  /** The signed value of a zigzag-encoded one. */
  public static int unzigzag(int n) {
    return (n >>> 1) ^ -(n & 1);
  }
}
