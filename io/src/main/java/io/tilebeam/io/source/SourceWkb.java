package io.tilebeam.io.source;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * WKB from a source (GeoParquet, PostGIS) read by JTS after its structure is checked: every count
 * it states must fit in the bytes that follow, and collections may nest at most {@link
 * #MOST_NESTING} levels. JTS sizes its arrays by the counts and reads nested collections by
 * recursion, so a geometry that claims 10^9 points in a few bytes, or nests 100,000 collections,
 * would otherwise take the reader's memory or stack; here it is one bad feature, with the reason.
 *
 * <p>ISO WKB (types 1-7, with Z, M or ZM as +1000, +2000, +3000) and PostGIS's extended WKB (flag
 * bits for Z, M and an SRID) are checked; a type JTS does not read is left for JTS to refuse.
 *
 * <p>Not thread-safe: one per reader.
 */
final class SourceWkb {

  /** The deepest nesting of collections read: real data nests one or two. */
  static final int MOST_NESTING = 32;

  private static final int EWKB_Z = 0x80000000;
  private static final int EWKB_M = 0x40000000;
  private static final int EWKB_SRID = 0x20000000;

  private final WKBReader reader = new WKBReader();

  /**
   * The geometry of {@code wkb}.
   *
   * @throws ParseException naming what is wrong when its structure does not fit its bytes, it nests
   *     too deep, or JTS cannot read it
   */
  Geometry read(byte[] wkb) throws ParseException {
    check(ByteBuffer.wrap(wkb), 0);
    return reader.read(wkb);
  }

  /** Walks one geometry from the buffer's position, leaving it after the geometry. */
  private static void check(ByteBuffer b, int depth) throws ParseException {
    if (depth > MOST_NESTING) {
      throw new ParseException("WKB collections nest deeper than " + MOST_NESTING + " levels");
    }
    need(b, 5, "a geometry's header");
    byte order = b.get();
    if (order != 0 && order != 1) {
      throw new ParseException("WKB byte order " + order + " at byte " + (b.position() - 1));
    }
    b.order(order == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    int raw = b.getInt();
    boolean z = (raw & EWKB_Z) != 0;
    boolean m = (raw & EWKB_M) != 0;
    if ((raw & EWKB_SRID) != 0) {
      need(b, 4, "an SRID");
      b.getInt();
    }
    int type = raw & 0x0FFFFFFF;
    int iso = type / 1000;
    type %= 1000;
    z |= iso == 1 || iso == 3;
    m |= iso == 2 || iso == 3;
    int coordinate = 8 * (2 + (z ? 1 : 0) + (m ? 1 : 0));
    switch (type) {
      case 1 -> need(b, coordinate, "a point");
      case 2 -> points(b, coordinate);
      case 3 -> {
        long rings = count(b, 4, "rings");
        for (long r = 0; r < rings; r++) {
          points(b, coordinate);
        }
      }
      case 4, 5, 6, 7 -> {
        long parts = count(b, 5, "parts");
        for (long p = 0; p < parts; p++) {
          check(b, depth + 1);
        }
      }
      default -> {
        // A type JTS does not read (curves, surfaces): it refuses it with its own message.
        b.position(b.limit());
      }
    }
  }

  private static void points(ByteBuffer b, int coordinate) throws ParseException {
    long n = count(b, coordinate, "points");
    b.position(b.position() + (int) (n * coordinate));
  }

  /** A count of things of at least {@code unit} bytes each, which must fit in what is left. */
  private static long count(ByteBuffer b, int unit, String what) throws ParseException {
    need(b, 4, "a count of " + what);
    long n = b.getInt() & 0xFFFFFFFFL;
    if (n * unit > b.remaining()) {
      throw new ParseException(
          "WKB claims " + n + " " + what + " with " + b.remaining() + " bytes left");
    }
    return n;
  }

  private static void need(ByteBuffer b, int bytes, String what) throws ParseException {
    if (b.remaining() < bytes) {
      throw new ParseException("WKB ends inside " + what + " at byte " + b.position());
    }
  }
}
