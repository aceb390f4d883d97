package io.tilebeam.io.format;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.locationtech.jts.geom.Envelope;
import org.wololo.flatgeobuf.generated.Geometry;
import org.wololo.flatgeobuf.generated.GeometryType;

/**
 * Writes a 2D WKB geometry straight into a FlatGeobuf {@code Geometry} table, without making JTS
 * objects of it: parsing each rendered feature's WKB back into JTS only to hand it to the
 * flatgeobuf library would build every geometry twice. The table is built with the same builder
 * calls in the same order as the library's {@code GeometryConversions.serialize} of that geometry,
 * so the bytes are the same (a test compares both on every geometry type).
 *
 * <p>The layout it reproduces: all positions of a part in one {@code xy} vector; ring ends for
 * every polygon (a single ring's too), line ends for a multi-line of two lines or more; a
 * multi-polygon's polygons as {@code parts}; the type stored only when the header's is Unknown. WKB
 * it does not take (Z or M, an SRID, an empty geometry, a collection) gives -1 and the caller takes
 * the library's way.
 */
final class FlatGeobufGeometry {

  private ByteBuffer in;
  private double[] xy = new double[64];
  private int points;
  private long[] ends = new long[4];
  private int endCount;
  private int polygons;
  private int[] polygonPoints;
  private int[] polygonEnds;

  private boolean inHole;
  private double minX;
  private double minY;
  private double maxX;
  private double maxY;

  /** Thrown inside when the WKB is not of the kind written here; carries no stack. */
  private static final class NotPlain extends Exception {
    private static final long serialVersionUID = 1L;
    static final NotPlain INSTANCE = new NotPlain();

    private NotPlain() {
      super(null, null, false, false);
    }
  }

  /**
   * Writes {@code wkb} into {@code builder} as a geometry of a file whose header type is {@code
   * headerType}, and returns the table's offset; -1 (nothing written) when the WKB is not a
   * non-empty 2D simple geometry of that type (or of any type, for an Unknown header).
   */
  int write(FlatBufferBuilder builder, byte[] wkb, int headerType) {
    int type;
    try {
      type = read(wkb);
    } catch (NotPlain | RuntimeException e) {
      return -1;
    }
    if (headerType != GeometryType.Unknown && headerType != type) {
      return -1;
    }
    // The whole WKB is read before the first byte is written: a failure leaves nothing behind.
    int stored = headerType == GeometryType.Unknown ? type : 0;
    if (type != GeometryType.MultiPolygon) {
      return part(builder, 0, points, 0, endCount, stored);
    }
    int n = polygons;
    int[] xyOffsets = new int[n];
    int[] endsOffsets = new int[n];
    for (int i = 0; i < n; i++) {
      xyOffsets[i] = xyVector(builder, polygonPoints[i], polygonPoints[i + 1]);
      endsOffsets[i] = endsVector(builder, polygonEnds[i], polygonEnds[i + 1], polygonPoints[i]);
    }
    int[] parts = new int[n];
    for (int i = 0; i < n; i++) {
      parts[i] =
          Geometry.createGeometry(
              builder, endsOffsets[i], xyOffsets[i], 0, 0, 0, 0, GeometryType.Polygon, 0);
    }
    int partsOffset = Geometry.createPartsVector(builder, parts);
    return Geometry.createGeometry(builder, 0, 0, 0, 0, 0, 0, stored, partsOffset);
  }

  /** The table of a part that is not a multi-polygon. */
  private int part(FlatBufferBuilder builder, int from, int to, int endFrom, int endTo, int type) {
    int xyOffset = xyVector(builder, from, to);
    int endsOffset = endTo > endFrom ? endsVector(builder, endFrom, endTo, from) : 0;
    return Geometry.createGeometry(builder, endsOffset, xyOffset, 0, 0, 0, 0, type, 0);
  }

  /** Reads the whole WKB into positions, ends and polygon bounds; returns its type. */
  private int read(byte[] wkb) throws NotPlain {
    in = ByteBuffer.wrap(wkb);
    points = 0;
    endCount = 0;
    polygons = 0;
    minX = Double.POSITIVE_INFINITY;
    minY = Double.POSITIVE_INFINITY;
    maxX = Double.NEGATIVE_INFINITY;
    maxY = Double.NEGATIVE_INFINITY;
    int type = header();
    switch (type) {
      case GeometryType.Point -> position();
      case GeometryType.LineString -> positions();
      case GeometryType.Polygon -> rings();
      case GeometryType.MultiPoint -> {
        int n = count();
        for (int i = 0; i < n; i++) {
          expect(GeometryType.Point);
          position();
        }
      }
      case GeometryType.MultiLineString -> {
        int n = count();
        for (int i = 0; i < n; i++) {
          expect(GeometryType.LineString);
          positions();
          addEnd();
        }
        if (n < 2) {
          endCount = 0; // the library writes line ends only for two lines or more
        }
      }
      case GeometryType.MultiPolygon -> {
        int n = count();
        polygonPoints = new int[n + 1];
        polygonEnds = new int[n + 1];
        for (int i = 0; i < n; i++) {
          expect(GeometryType.Polygon);
          rings();
          polygonPoints[i + 1] = points;
          polygonEnds[i + 1] = endCount;
        }
        polygons = n;
      }
      default -> throw NotPlain.INSTANCE;
    }
    if (in.hasRemaining()) {
      throw NotPlain.INSTANCE;
    }
    return type;
  }

  /** The envelope of the last geometry written, as JTS gives it for that geometry. */
  Envelope envelope() {
    return new Envelope(minX, maxX, minY, maxY);
  }

  /** Reads a WKB header: byte order, then a plain 2D type code (1 to 7). */
  private int header() throws NotPlain {
    byte order = in.get();
    if (order != 0 && order != 1) {
      throw NotPlain.INSTANCE;
    }
    in.order(order == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    int code = in.getInt();
    if (code < 1 || code > 7) {
      throw NotPlain.INSTANCE; // Z, M, an SRID flag, or not a simple type
    }
    return code;
  }

  private int count() throws NotPlain {
    int n = in.getInt();
    if (n <= 0 || n > in.remaining()) {
      throw NotPlain.INSTANCE; // empty, or more than the bytes left could hold
    }
    return n;
  }

  private void expect(int type) throws NotPlain {
    if (header() != type) {
      throw NotPlain.INSTANCE;
    }
  }

  /** A polygon's rings, each one's end recorded. */
  private void rings() throws NotPlain {
    int rings = count();
    for (int r = 0; r < rings; r++) {
      // A polygon's envelope is its shell's, as JTS gives it (holes lie inside the shell).
      inHole = r > 0;
      positions();
      addEnd();
    }
    inHole = false;
  }

  private void positions() throws NotPlain {
    int n = count();
    for (int i = 0; i < n; i++) {
      position();
    }
  }

  private void position() throws NotPlain {
    double x = in.getDouble();
    double y = in.getDouble();
    if (Double.isNaN(x) || Double.isNaN(y)) {
      throw NotPlain.INSTANCE; // an empty point, as WKB writes one
    }
    if (points * 2 + 2 > xy.length) {
      xy = Arrays.copyOf(xy, xy.length * 2);
    }
    xy[points * 2] = x;
    xy[points * 2 + 1] = y;
    points++;
    if (inHole) {
      return;
    }
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }

  private void addEnd() {
    if (endCount == ends.length) {
      ends = Arrays.copyOf(ends, ends.length * 2);
    }
    ends[endCount++] = points;
  }

  /** Ring or line ends {@code [from, to)}, counted from the part's first position. */
  private int endsVector(FlatBufferBuilder builder, int from, int to, int firstPoint) {
    long[] partEnds = new long[to - from];
    for (int i = from; i < to; i++) {
      partEnds[i - from] = ends[i] - firstPoint;
    }
    return Geometry.createEndsVector(builder, partEnds);
  }

  /** Positions {@code [from, to)} as one vector, added last to first (built backwards). */
  private int xyVector(FlatBufferBuilder builder, int from, int to) {
    Geometry.startXyVector(builder, 2 * (to - from));
    for (int i = to - 1; i >= from; i--) {
      builder.addDouble(xy[2 * i + 1]);
      builder.addDouble(xy[2 * i]);
    }
    return builder.endVector();
  }
}
