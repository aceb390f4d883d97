package io.tilebeam.transforms.cut;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * Writes 2D well-known binary (little-endian, or big-endian as JTS writes it; ISO/OGC type codes)
 * straight from coordinate arrays, without building JTS objects for the millions of points a cut
 * makes.
 */
final class Wkb implements PieceWriter {

  static final int POINT = 1;
  static final int LINE_STRING = 2;
  static final int POLYGON = 3;
  static final int MULTI_POINT = 4;
  static final int MULTI_LINE_STRING = 5;
  static final int MULTI_POLYGON = 6;
  static final int GEOMETRY_COLLECTION = 7;

  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BIG_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BIG_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  // A plain growing array: a ByteArrayOutputStream's synchronized writes of four and eight bytes
  // were a tenth of the render engine's time.
  private byte[] out;
  private int size;
  private final boolean bigEndian;

  Wkb(int expectedBytes) {
    this(expectedBytes, false);
  }

  private Wkb(int expectedBytes, boolean bigEndian) {
    this.out = new byte[Math.max(16, expectedBytes)];
    this.bigEndian = bigEndian;
  }

  /** A big-endian writer: the byte order JTS's {@code WKBWriter} writes by default. */
  static Wkb bigEndian(int expectedBytes) {
    return new Wkb(expectedBytes, true);
  }

  byte[] bytes() {
    return size == out.length ? out : Arrays.copyOf(out, size);
  }

  private void room(int bytes) {
    if (size + bytes > out.length) {
      out = Arrays.copyOf(out, Math.max(size + bytes, 2 * out.length));
    }
  }

  /** The start of a geometry of {@code type}: byte order and type code. */
  @Override
  public Wkb header(int type) {
    room(1);
    out[size++] = (byte) (bigEndian ? 0 : 1);
    return integer(type);
  }

  @Override
  public Wkb integer(int v) {
    room(4);
    if (bigEndian) {
      BIG_INT.set(out, size, v);
    } else {
      INT.set(out, size, v);
    }
    size += 4;
    return this;
  }

  Wkb number(double d) {
    room(8);
    if (bigEndian) {
      BIG_LONG.set(out, size, Double.doubleToRawLongBits(d));
    } else {
      LONG.set(out, size, Double.doubleToRawLongBits(d));
    }
    size += 8;
    return this;
  }

  @Override
  public void point(double x, double y) {
    header(POINT).number(x).number(y);
  }

  @Override
  public void lineString(double[] xy) {
    header(LINE_STRING).integer(xy.length / 2);
    for (double d : xy) {
      number(d);
    }
  }

  /** A polygon from rings without closing points: the closing point is written here. */
  @Override
  public void polygon(double[] shell, List<double[]> holes) {
    header(POLYGON).integer(1 + holes.size());
    ring(shell);
    for (double[] h : holes) {
      ring(h);
    }
  }

  private void ring(double[] xy) {
    integer(xy.length / 2 + 1);
    for (double d : xy) {
      number(d);
    }
    number(xy[0]).number(xy[1]);
  }
}
