package io.tilebeam.transforms.feature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.locationtech.jts.geom.Geometry;
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

  /** The WKB {@code writer} writes for {@code geometry}. */
  public static byte[] of(WKBWriter writer, Geometry geometry) {
    WkbBytes out = new WkbBytes(16 * geometry.getNumPoints() + 64);
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
}
