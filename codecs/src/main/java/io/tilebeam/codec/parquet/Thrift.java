package io.tilebeam.codec.parquet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Thrift's compact protocol, which Parquet's footer and page headers are written in: read into
 * generic {@link Struct}s (field id → value) and written from them. Values are {@code Boolean},
 * {@code Long} (every integer width), {@code Double}, {@code byte[]}, {@code List} and {@code
 * Struct}; maps, which Parquet does not use, are refused.
 */
final class Thrift {

  private static final int STOP = 0;
  private static final int TRUE = 1;
  private static final int FALSE = 2;
  private static final int BYTE = 3;
  private static final int I16 = 4;
  private static final int I32 = 5;
  private static final int I64 = 6;
  private static final int DOUBLE = 7;
  private static final int BINARY = 8;
  private static final int LIST = 9;
  private static final int SET = 10;
  private static final int STRUCT = 12;

  /** Deepest nesting read: Parquet's structures are a few levels deep. */
  private static final int MAX_DEPTH = 32;

  private Thrift() {}

  /**
   * A struct: its fields by id, in id order. Reading a field of another type than the schema's is
   * an {@link IOException} naming the field, not a cast failure: a damaged or hostile footer is
   * refused, never half read.
   */
  static final class Struct {
    final Map<Integer, Object> fields = new TreeMap<>();

    Struct put(int id, Object value) {
      if (value != null) {
        fields.put(id, value);
      }
      return this;
    }

    boolean has(int id) {
      return fields.containsKey(id);
    }

    private <T> T typed(int id, Class<T> type) throws IOException {
      Object v = fields.get(id);
      if (v == null || type.isInstance(v)) {
        return type.cast(v);
      }
      throw new IOException(
          "thrift field "
              + id
              + " is a "
              + kind(v)
              + " where a "
              + type.getSimpleName().toLowerCase(java.util.Locale.ROOT)
              + " belongs");
    }

    private static String kind(Object v) {
      return v instanceof Struct
          ? "struct"
          : v instanceof List<?>
              ? "list"
              : v instanceof byte[]
                  ? "binary"
                  : v.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    long i64(int id, long absent) throws IOException {
      Long v = typed(id, Long.class);
      return v == null ? absent : v;
    }

    int i32(int id, int absent) throws IOException {
      long v = i64(id, absent);
      if (v != (int) v) {
        throw new IOException("thrift field " + id + " holds " + v + ", beyond a 32-bit integer");
      }
      return (int) v;
    }

    boolean bool(int id, boolean absent) throws IOException {
      Boolean v = typed(id, Boolean.class);
      return v == null ? absent : v;
    }

    byte[] binary(int id) throws IOException {
      return typed(id, byte[].class);
    }

    String string(int id) throws IOException {
      byte[] b = binary(id);
      return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    Struct struct(int id) throws IOException {
      return typed(id, Struct.class);
    }

    /** A list of structs (empty when absent). */
    List<Struct> structs(int id) throws IOException {
      return elements(id, Struct.class);
    }

    /** A list of integers (empty when absent). */
    List<Long> integers(int id) throws IOException {
      return elements(id, Long.class);
    }

    private <T> List<T> elements(int id, Class<T> type) throws IOException {
      List<?> l = typed(id, List.class);
      if (l == null) {
        return List.of();
      }
      List<T> out = new ArrayList<>(l.size());
      for (Object e : l) {
        if (!type.isInstance(e)) {
          throw new IOException(
              "thrift field " + id + " is a list of " + kind(e) + " where other values belong");
        }
        out.add(type.cast(e));
      }
      return out;
    }
  }

  /** Reads compact-protocol structs from a buffer. */
  static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;

    Reader(byte[] buf, int from, int to) {
      this.buf = buf;
      this.pos = from;
      this.end = to;
    }

    /** Where reading stopped: the byte after the last struct read. */
    int position() {
      return pos;
    }

    Struct struct() throws IOException {
      return struct(0);
    }

    private Struct struct(int depth) throws IOException {
      if (depth > MAX_DEPTH) {
        throw new IOException("thrift structures nest deeper than " + MAX_DEPTH);
      }
      Struct s = new Struct();
      int last = 0;
      while (true) {
        int header = u8();
        int type = header & 0x0f;
        if (type == STOP) {
          return s;
        }
        int delta = header >>> 4;
        int id = delta == 0 ? (short) zigzag(varint()) : last + delta;
        last = id;
        s.fields.put(id, value(type, depth));
      }
    }

    private Object value(int type, int depth) throws IOException {
      return switch (type) {
        case TRUE -> Boolean.TRUE;
        case FALSE -> Boolean.FALSE;
        case BYTE -> (long) (byte) u8();
        case I16, I32, I64 -> zigzag(varint());
        case DOUBLE -> Double.longBitsToDouble(fixed64());
        case BINARY -> binary();
        case LIST, SET -> list(depth);
        case STRUCT -> struct(depth + 1);
        default -> throw new IOException("unsupported thrift type " + type + " at byte " + pos);
      };
    }

    private List<Object> list(int depth) throws IOException {
      int header = u8();
      long size = header >>> 4;
      if (size == 15) {
        size = varint();
      }
      int type = header & 0x0f;
      if (size > end - pos) {
        throw new IOException("a thrift list of " + size + " elements runs past its bytes");
      }
      List<Object> out = new ArrayList<>((int) size);
      for (long i = 0; i < size; i++) {
        // Booleans in a list are one byte each: 1 true, else false.
        out.add(type == TRUE || type == FALSE ? u8() == TRUE : value(type, depth + 1));
      }
      return out;
    }

    private byte[] binary() throws IOException {
      long n = varint();
      if (n < 0 || n > end - pos) {
        throw new IOException("a thrift binary of " + n + " bytes runs past its bytes");
      }
      byte[] b = java.util.Arrays.copyOfRange(buf, pos, pos + (int) n);
      pos += (int) n;
      return b;
    }

    private int u8() throws IOException {
      if (pos >= end) {
        throw new IOException("thrift bytes end inside a structure");
      }
      return buf[pos++] & 0xff;
    }

    private long fixed64() throws IOException {
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v |= (long) u8() << (8 * i);
      }
      return v;
    }

    private long varint() throws IOException {
      long v = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        int b = u8();
        v |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IOException("thrift varint too long");
    }

    private static long zigzag(long n) {
      return (n >>> 1) ^ -(n & 1);
    }
  }

  /**
   * Writes compact-protocol structs. Integers are written with the width the schema gives them: the
   * caller says which fields are i32 ({@link I32Value}) and which i64 (a plain {@code Long}).
   */
  static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    byte[] bytes() {
      return out.toByteArray();
    }

    Writer struct(Struct s) {
      int last = 0;
      for (Map.Entry<Integer, Object> e : s.fields.entrySet()) {
        int id = e.getKey();
        Object v = e.getValue();
        int type = typeOf(v);
        if (v instanceof Boolean b) {
          type = b ? TRUE : FALSE;
        }
        int delta = id - last;
        if (delta > 0 && delta <= 15) {
          out.write(delta << 4 | type);
        } else {
          out.write(type);
          varint(zigzag(id));
        }
        last = id;
        if (!(v instanceof Boolean)) {
          value(v);
        }
      }
      out.write(STOP);
      return this;
    }

    private void value(Object v) {
      if (v instanceof I32Value i) {
        varint(zigzag(i.value()));
      } else if (v instanceof Long l) {
        varint(zigzag(l));
      } else if (v instanceof Double d) {
        long bits = Double.doubleToLongBits(d);
        for (int i = 0; i < 8; i++) {
          out.write((int) (bits >>> (8 * i)));
        }
      } else if (v instanceof byte[] b) {
        varint(b.length);
        out.writeBytes(b);
      } else if (v instanceof String str) {
        value(str.getBytes(StandardCharsets.UTF_8));
      } else if (v instanceof List<?> l) {
        int elementType = l.isEmpty() ? I32 : typeOf(l.get(0));
        if (l.size() < 15) {
          out.write(l.size() << 4 | elementType);
        } else {
          out.write(0xf0 | elementType);
          varint(l.size());
        }
        for (Object e : l) {
          if (e instanceof Boolean b) {
            out.write(b ? TRUE : FALSE);
          } else {
            value(e);
          }
        }
      } else if (v instanceof Struct s) {
        struct(s);
      } else {
        throw new IllegalArgumentException("not a thrift value: " + v);
      }
    }

    private static int typeOf(Object v) {
      if (v instanceof I32Value) {
        return I32;
      } else if (v instanceof Long) {
        return I64;
      } else if (v instanceof Double) {
        return DOUBLE;
      } else if (v instanceof byte[] || v instanceof String) {
        return BINARY;
      } else if (v instanceof List<?>) {
        return LIST;
      } else if (v instanceof Struct) {
        return STRUCT;
      } else if (v instanceof Boolean) {
        return TRUE;
      }
      throw new IllegalArgumentException("not a thrift value: " + v);
    }

    private void varint(long v) {
      while ((v & ~0x7fL) != 0) {
        out.write((int) ((v & 0x7f) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    private static long zigzag(long n) {
      return (n << 1) ^ (n >> 63);
    }
  }

  /** An i32 field's value, for the writer (a {@code Long} is written as i64). */
  record I32Value(int value) {}
}
