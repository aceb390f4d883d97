package io.tilebeam.transforms.cut;

import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Writes 2D well-known binary (little-endian, ISO/OGC type codes) straight from coordinate arrays,
 * without building JTS objects for the millions of points a cut makes.
 */
final class Wkb implements PieceWriter {

  static final int POINT = 1;
  static final int LINE_STRING = 2;
  static final int POLYGON = 3;
  static final int MULTI_POINT = 4;
  static final int MULTI_LINE_STRING = 5;
  static final int MULTI_POLYGON = 6;
  static final int GEOMETRY_COLLECTION = 7;

  private final ByteArrayOutputStream out;
  private final byte[] scratch = new byte[8];

  Wkb(int expectedBytes) {
    out = new ByteArrayOutputStream(expectedBytes);
  }

  byte[] bytes() {
    return out.toByteArray();
  }

  /** The start of a geometry of {@code type}: byte order and type code. */
  @Override
  public Wkb header(int type) {
    out.write(1);
    return integer(type);
  }

  @Override
  public Wkb integer(int v) {
    scratch[0] = (byte) v;
    scratch[1] = (byte) (v >>> 8);
    scratch[2] = (byte) (v >>> 16);
    scratch[3] = (byte) (v >>> 24);
    out.write(scratch, 0, 4);
    return this;
  }

  Wkb number(double d) {
    long v = Double.doubleToRawLongBits(d);
    for (int i = 0; i < 8; i++) {
      scratch[i] = (byte) (v >>> (8 * i));
    }
    out.write(scratch, 0, 8);
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
