package io.tilebeam.transforms.feature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.OutStream;
import org.locationtech.jts.io.WKBWriter;

/**
 * A geometry's WKB through JTS's writer (so the bytes are exactly its), into a plain growing array.
 * {@link WKBWriter#write(Geometry)} goes through a {@code ByteArrayOutputStream}, whose
 * synchronized writes of eight bytes at a time are a lock per coordinate on the render path.
 */
public final class WkbBytes implements OutStream {

  private byte[] bytes;
  private int size;

  private WkbBytes(int capacity) {
    this.bytes = new byte[capacity];
  }

  /**
   * The WKB {@code writer} writes for {@code geometry}. The array is made at the size
   * two-dimensional WKB without an SRID takes, so that it is neither grown nor trimmed for the
   * writers the pipeline uses: a country's piece runs to megabytes, and each copy of it is garbage
   * the collector may have to move.
   */
  public static byte[] of(WKBWriter writer, Geometry geometry) {
    long exact = size(geometry);
    WkbBytes out = new WkbBytes((int) Math.min(Integer.MAX_VALUE - 64, exact));
    try {
      writer.write(geometry, out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.size == out.bytes.length ? out.bytes : Arrays.copyOf(out.bytes, out.size);
  }

  @Override
  public void write(byte[] buf, int len) {
    if (size + len > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(size + len, bytes.length * 2));
    }
    System.arraycopy(buf, 0, bytes, size, len);
    size += len;
  }

  /**
   * The bytes of {@code geometry} as big- or little-endian WKB in two dimensions without an SRID,
   * as JTS's writer lays it out: a byte order and a type (5 bytes) before each geometry, 16 bytes a
   * point (an empty point is written as two NaNs), a count of 4 bytes before the points of each
   * line and ring, the rings of a polygon and the members of a collection.
   */
  static long size(Geometry geometry) {
    if (geometry instanceof Point) {
      return 5 + 16;
    }
    if (geometry instanceof LineString line) {
      return 5 + 4 + 16L * line.getNumPoints();
    }
    if (geometry instanceof Polygon polygon) {
      if (polygon.isEmpty()) {
        return 5 + 4;
      }
      long size = 5 + 4 + 4 + 16L * polygon.getExteriorRing().getNumPoints();
      for (int i = 0; i < polygon.getNumInteriorRing(); i++) {
        size += 4 + 16L * polygon.getInteriorRingN(i).getNumPoints();
      }
      return size;
    }
    if (geometry instanceof GeometryCollection collection) {
      long size = 5 + 4;
      for (int i = 0; i < collection.getNumGeometries(); i++) {
        size += size(collection.getGeometryN(i));
      }
      return size;
    }
    return 16L * geometry.getNumPoints() + 64;
  }
}
