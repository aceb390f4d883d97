package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.feature.VarintBytes;
import org.apache.beam.sdk.util.VarInt;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;

/**
 * A piece already rounded onto its layer's output grid, written compactly: where the tile matrix
 * set's CRS is the target CRS the renderer's transform is the identity, so rounding at the cutter
 * gives the very coordinates the renderer would make, and each one fits a small integer. Pieces are
 * what the shuffle carries and spills; as zig-zag variable-length deltas of grid steps they take
 * about a third of the bytes of WKB's two doubles per vertex.
 *
 * <p>The layout: a marker byte WKB never starts with ({@code 'G'}), a version, a flag byte, the
 * decimal digits of the grid, then the geometry as WKB orders it (type, counts, parts) with each
 * coordinate as the difference from the previous one on the same axis, in grid steps. Reading gives
 * the same geometry, coordinate for coordinate, as reading the WKB of the rounded piece. The flag
 * {@link #keptValid} says the cutter found that rounding left the piece valid ({@link
 * io.tilebeam.transforms.repair.RoundingCheck}), so the renderer need not check it again; the flag
 * {@link #wound} that its polygons are rings as they wind, to be united rather than read as they
 * are.
 */
public final class GridPiece {

  private static final byte MARKER = 'G';
  private static final byte VERSION = 2;

  /** The flag of a piece that rounding left valid. */
  private static final int KEPT_VALID = 1;

  /** The flag of a piece whose polygons are rings kept as they wind ({@link #wound}). */
  private static final int WOUND = 2;

  /** Where the geometry starts: after the marker, version, flags and digits. */
  private static final int HEADER = 4;

  /** Grid steps beyond this are not exact as doubles; such a piece stays WKB. */
  private static final double LIMIT = 0x1p52;

  private GridPiece() {}

  /** Whether {@code bytes} hold a grid piece rather than WKB (which starts with 0 or 1). */
  public static boolean isGrid(byte[] bytes) {
    return bytes.length > 0 && bytes[0] == MARKER;
  }

  /**
   * The piece rounded to {@code digits} decimals and encoded, or its WKB (unrounded) when a
   * coordinate is not finite or too large for exact grid steps. {@code keptValid} marks a piece
   * known to be valid once rounded, {@code wound} one whose polygons are rings as they wind.
   */
  static byte[] encode(TilePiece piece, int digits, boolean keptValid, boolean wound) {
    double scale = Math.pow(10, digits);
    // Counted first, then written into an array of exactly that size: an estimate from the
    // vertices was short for most large pieces (grown by doubling, then trimmed by a copy).
    Writer count = new Writer(scale, null);
    piece.writeTo(count);
    if (!count.exact() || count.size() > Integer.MAX_VALUE - 64) {
      return piece.wkb();
    }
    Writer w = new Writer(scale, VarintBytes.ofSize(HEADER + (int) count.size()));
    w.out.write(MARKER);
    w.out.write(VERSION);
    w.out.write((keptValid ? KEPT_VALID : 0) | (wound ? WOUND : 0));
    w.out.write(digits);
    piece.writeTo(w);
    return w.out.bytes();
  }

  /**
   * Whether the cutter found that the piece, valid before rounding, is valid rounded: then it needs
   * no check of its own.
   */
  public static boolean keptValid(byte[] bytes) {
    return isGrid(bytes) && bytes.length > HEADER && (bytes[2] & KEPT_VALID) != 0;
  }

  /**
   * Whether the piece's polygons are a tile's slices of rings kept as they wind ({@link
   * CutSpec#woundPieces()}): the piece is the area where they wind at least once (shells +1 inside,
   * holes −1), which its polygons' structure need not show. Such a piece is valid as it reads only
   * if nothing of it was lost in rounding; else the renderer unites its rings.
   */
  public static boolean wound(byte[] bytes) {
    return isGrid(bytes) && bytes.length > HEADER && (bytes[2] & WOUND) != 0;
  }

  /** The decimal digits a grid piece is rounded to. */
  public static int digits(byte[] bytes) {
    header(bytes);
    return bytes[3];
  }

  /** The geometry of a grid piece. */
  public static Geometry read(byte[] bytes, GeometryFactory factory) {
    header(bytes);
    Reader r = new Reader(bytes, HEADER, Math.pow(10, bytes[3]), factory);
    Geometry g = r.geometry();
    r.requireEnd();
    return g;
  }

  /** A piece's WKB and its number of points. */
  public record Transcoded(byte[] wkb, long points) {}

  /**
   * The WKB of a grid piece, exactly as JTS's {@code WKBWriter} writes the geometry {@link #read}
   * gives (big-endian, two dimensions), and its number of points, written straight from the grid
   * steps without building the geometry: for a piece that needs no more work before it is written.
   */
  public static Transcoded toWkb(byte[] bytes) {
    header(bytes);
    Reader r = new Reader(bytes, HEADER, Math.pow(10, bytes[3]), null);
    Wkb out = Wkb.bigEndian(Math.max(64, 3 * bytes.length));
    long points = r.transcode(out);
    r.requireEnd();
    return new Transcoded(out.bytes(), points);
  }

  private static void header(byte[] bytes) {
    if (!isGrid(bytes) || bytes.length < HEADER + 1 || bytes[1] != VERSION) {
      throw new IllegalArgumentException("not a grid piece");
    }
  }

  /**
   * Writes a piece's structure and its coordinates in grid steps, or (with no array to write to)
   * counts the bytes it would write.
   */
  private static final class Writer implements PieceWriter {
    private final VarintBytes out;
    private final double scale;
    private long lastX;
    private long lastY;
    private boolean exact = true;
    private long size;

    private Writer(double scale, VarintBytes out) {
      this.scale = scale;
      this.out = out;
    }

    /** Whether every coordinate so far was finite and small enough. */
    boolean exact() {
      return exact;
    }

    /** The bytes counted, with no array to write to. */
    long size() {
      return size;
    }

    @Override
    public Writer header(int type) {
      varint(type);
      return this;
    }

    @Override
    public Writer integer(int n) {
      varint(n);
      return this;
    }

    private void varint(long v) {
      if (out != null) {
        out.varint(v);
      } else {
        size += VarInt.getLength(v);
      }
    }

    private void zigzag(long v) {
      if (out != null) {
        out.zigzag(v);
      } else {
        size += VarInt.getLength((v << 1) ^ (v >> 63));
      }
    }

    @Override
    public void point(double x, double y) {
      header(Wkb.POINT);
      coordinate(x, y);
    }

    @Override
    public void lineString(double[] xy) {
      header(Wkb.LINE_STRING).integer(xy.length / 2);
      coordinates(xy, false);
    }

    @Override
    public void polygon(double[] shell, java.util.List<double[]> holes) {
      header(Wkb.POLYGON).integer(1 + holes.size());
      coordinates(shell, true);
      for (double[] h : holes) {
        coordinates(h, true);
      }
    }

    /** A line's points, or a ring's with its closing point (ring arrays are open). */
    private void coordinates(double[] xy, boolean ring) {
      if (ring) {
        integer(xy.length / 2 + 1);
      }
      for (int i = 0; i < xy.length; i += 2) {
        coordinate(xy[i], xy[i + 1]);
      }
      if (ring) {
        coordinate(xy[0], xy[1]);
      }
    }

    private void coordinate(double x, double y) {
      double gx = Math.rint(x * scale);
      double gy = Math.rint(y * scale);
      if (!(Math.abs(gx) < LIMIT) || !(Math.abs(gy) < LIMIT)) {
        exact = false;
        return;
      }
      long kx = (long) gx;
      long ky = (long) gy;
      zigzag(kx - lastX);
      zigzag(ky - lastY);
      lastX = kx;
      lastY = ky;
    }
  }

  /** Reads a grid piece back into a geometry. */
  private static final class Reader {
    private final byte[] in;
    private final double scale;
    private final GeometryFactory f;
    private int at;
    private long lastX;
    private long lastY;

    Reader(byte[] in, int at, double scale, GeometryFactory f) {
      this.in = in;
      this.at = at;
      this.scale = scale;
      this.f = f;
    }

    Geometry geometry() {
      int type = (int) varint();
      switch (type) {
        case Wkb.POINT:
          return f.createPoint(coordinate());
        case Wkb.LINE_STRING:
          return f.createLineString(coordinates());
        case Wkb.POLYGON:
          return polygon();
        case Wkb.MULTI_POINT:
          return f.createMultiPoint(parts(Point[]::new));
        case Wkb.MULTI_LINE_STRING:
          return f.createMultiLineString(parts(LineString[]::new));
        case Wkb.MULTI_POLYGON:
          return f.createMultiPolygon(parts(Polygon[]::new));
        case Wkb.GEOMETRY_COLLECTION:
          return f.createGeometryCollection(parts(Geometry[]::new));
        default:
          throw new IllegalArgumentException("grid piece has an unknown geometry type " + type);
      }
    }

    /** Refuses bytes left after the geometry. */
    void requireEnd() {
      if (at != in.length) {
        throw new IllegalArgumentException("grid piece has " + (in.length - at) + " extra bytes");
      }
    }

    /** Writes the next geometry into {@code out} as WKB; returns its number of points. */
    long transcode(Wkb out) {
      int type = (int) varint();
      out.header(type);
      switch (type) {
        case Wkb.POINT:
          coordinateTo(out);
          return 1;
        case Wkb.LINE_STRING:
          return coordinatesTo(out);
        case Wkb.POLYGON:
          {
            int rings = count();
            out.integer(rings);
            long points = 0;
            for (int i = 0; i < rings; i++) {
              points += coordinatesTo(out);
            }
            return points;
          }
        case Wkb.MULTI_POINT:
        case Wkb.MULTI_LINE_STRING:
        case Wkb.MULTI_POLYGON:
        case Wkb.GEOMETRY_COLLECTION:
          {
            int parts = count();
            out.integer(parts);
            long points = 0;
            for (int i = 0; i < parts; i++) {
              points += transcode(out);
            }
            return points;
          }
        default:
          throw new IllegalArgumentException("grid piece has an unknown geometry type " + type);
      }
    }

    private long coordinatesTo(Wkb out) {
      int n = count();
      out.integer(n);
      for (int i = 0; i < n; i++) {
        coordinateTo(out);
      }
      return n;
    }

    private void coordinateTo(Wkb out) {
      lastX += zigzag();
      lastY += zigzag();
      out.number(lastX / scale).number(lastY / scale);
    }

    private <T extends Geometry> T[] parts(java.util.function.IntFunction<T[]> array) {
      int n = count();
      T[] parts = array.apply(n);
      for (int i = 0; i < n; i++) {
        @SuppressWarnings("unchecked")
        T part = (T) geometry();
        parts[i] = part;
      }
      return parts;
    }

    private Polygon polygon() {
      int rings = count();
      LinearRing shell = f.createLinearRing(coordinates());
      LinearRing[] holes = new LinearRing[rings - 1];
      for (int i = 0; i < holes.length; i++) {
        holes[i] = f.createLinearRing(coordinates());
      }
      return f.createPolygon(shell, holes);
    }

    private Coordinate[] coordinates() {
      Coordinate[] c = new Coordinate[count()];
      for (int i = 0; i < c.length; i++) {
        c[i] = coordinate();
      }
      return c;
    }

    private Coordinate coordinate() {
      lastX += zigzag();
      lastY += zigzag();
      // The same expression as the renderer's rounding, so the doubles are the same.
      return new Coordinate(lastX / scale, lastY / scale);
    }

    private int count() {
      long n = varint();
      if (n < 0 || n > in.length - at) {
        throw new IllegalArgumentException("grid piece has a bad count " + n);
      }
      return (int) n;
    }

    private long zigzag() {
      long v = varint();
      return (v >>> 1) ^ -(v & 1);
    }

    private long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= in.length) {
          throw new IllegalArgumentException("grid piece is truncated");
        }
        byte b = in[at++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw new IllegalArgumentException("grid piece has an overlong number");
    }
  }
}
