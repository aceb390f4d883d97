package io.tilebeam.codec.mvt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.AffineTransformation;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.precision.GeometryPrecisionReducer;

/**
 * One geometry as vector-tile commands (MVT 2.1 §4.3): moved onto the tile's integer grid (x right,
 * y down), snapped there without breaking polygon validity (a geometry already on the grid, as the
 * renderer leaves it, is taken as it is), and written as MoveTo, LineTo and ClosePath commands with
 * zigzag deltas. Exterior rings have positive area on the grid (clockwise as drawn) and holes
 * negative. A feature has one type: of a mixed collection, only the parts of the highest dimension
 * are kept.
 */
public final class MvtGeometry {

  public static final int POINT = 1;
  static final int LINESTRING = 2;
  public static final int POLYGON = 3;

  private static final int MOVE_TO = 1;
  private static final int LINE_TO = 2;
  private static final int CLOSE_PATH = 7;
  private static final PrecisionModel GRID = new PrecisionModel(1.0);

  /** A geometry's type and command integers. */
  public record Commands(int type, int[] values, int length) {}

  private final AffineTransformation toGrid;
  private int[] out = new int[64];
  private int n;
  private int cursorX;
  private int cursorY;

  private MvtGeometry(Envelope tile, int extent) {
    double sx = extent / tile.getWidth();
    double sy = extent / tile.getHeight();
    toGrid =
        AffineTransformation.translationInstance(-tile.getMinX(), -tile.getMaxY()).scale(sx, -sy);
  }

  /** The commands of {@code g} (in the tile's CRS) on a grid of {@code extent}; null if none. */
  public static Commands encode(Geometry g, Envelope tile, int extent) {
    MvtGeometry m = new MvtGeometry(tile, extent);
    return m.encodeGrid(m.toGrid.transform(g));
  }

  /**
   * {@link #encode}, moving {@code g}'s own coordinates onto the grid rather than a copy of them
   * (the same arithmetic): for a geometry made for this call alone, such as one just read from WKB.
   * {@code g} is in grid units afterwards.
   */
  public static Commands encodeInPlace(Geometry g, Envelope tile, int extent) {
    MvtGeometry m = new MvtGeometry(tile, extent);
    g.apply(m.toGrid);
    g.geometryChanged();
    return m.encodeGrid(g);
  }

  /**
   * The geometry (in grid units) snap-rounded onto the integer grid, staying valid. The renderer's
   * check accepts a few rings that JTS's overlay refuses to reduce (it throws "Reduction failed" on
   * real coastlines at low zooms): those are fixed in grid units first, and if that too fails,
   * snapped point by point and fixed, so that one feature never fails its whole tile.
   */
  public static Geometry onGrid(Geometry inGridUnits) {
    try {
      return GeometryPrecisionReducer.reduce(inGridUnits, GRID);
    } catch (RuntimeException e) {
      try {
        return GeometryPrecisionReducer.reduce(GeometryFixer.fix(inGridUnits), GRID);
      } catch (RuntimeException e2) {
        return GeometryFixer.fix(GeometryPrecisionReducer.reducePointwise(inGridUnits, GRID));
      }
    }
  }

  /**
   * How far from a grid point a coordinate may lie and still be taken as that point: far more than
   * the last bits a double loses on the way from grid units to the CRS and back, far less than any
   * coordinate off the grid is likely to be.
   */
  private static final double ON_GRID = 1e-3;

  /** Whether every coordinate is a grid point, up to {@link #ON_GRID}; reads them in place. */
  private static boolean onGridAlready(Geometry inGridUnits) {
    boolean[] on = {true};
    inGridUnits.apply(
        new CoordinateSequenceFilter() {
          @Override
          public void filter(CoordinateSequence seq, int i) {
            double x = seq.getX(i);
            double y = seq.getY(i);
            if (Math.abs(x - Math.rint(x)) > ON_GRID || Math.abs(y - Math.rint(y)) > ON_GRID) {
              on[0] = false;
            }
          }

          @Override
          public boolean isDone() {
            return !on[0];
          }

          @Override
          public boolean isGeometryChanged() {
            return false;
          }
        });
    return on[0];
  }

  /** The commands of a geometry in grid units. */
  private Commands encodeGrid(Geometry inUnits) {
    // A geometry the renderer finished on this very grid is valid there as it is: each coordinate
    // is rounded to its grid point as it is written (repeats dropped, rings without area left
    // out), where snap-rounding the whole geometry again would cost an overlay per feature.
    Geometry grid = onGridAlready(inUnits) ? inUnits : onGrid(inUnits);
    if (grid.isEmpty()) {
      return null;
    }
    List<Geometry> parts = new ArrayList<>();
    for (int i = 0; i < grid.getNumGeometries(); i++) {
      collect(grid.getGeometryN(i), parts);
    }
    int dimension = parts.stream().mapToInt(Geometry::getDimension).max().orElse(-1);
    int type;
    if (dimension == 2) {
      type = POLYGON;
      parts.stream().filter(p -> p instanceof Polygon).forEach(p -> polygon((Polygon) p));
    } else if (dimension == 1) {
      type = LINESTRING;
      parts.stream().filter(p -> p instanceof LineString).forEach(p -> line((LineString) p));
    } else if (dimension == 0) {
      type = POINT;
      points(parts.stream().filter(p -> p instanceof Point).map(p -> (Point) p).toList());
    } else {
      return null;
    }
    return n == 0 ? null : new Commands(type, out, n);
  }

  private static void collect(Geometry g, List<Geometry> into) {
    if (g.getNumGeometries() > 1 || g.getClass().getSimpleName().startsWith("Multi")) {
      for (int i = 0; i < g.getNumGeometries(); i++) {
        collect(g.getGeometryN(i), into);
      }
    } else if (!g.isEmpty()) {
      into.add(g);
    }
  }

  private void points(List<Point> points) {
    if (points.isEmpty()) {
      return;
    }
    command(MOVE_TO, points.size());
    for (Point p : points) {
      to(grid(p.getX()), grid(p.getY()));
    }
  }

  private void line(LineString line) {
    long[] c = distinct(line.getCoordinateSequence());
    if (c.length < 2) {
      return;
    }
    command(MOVE_TO, 1);
    to(c[0]);
    command(LINE_TO, c.length - 1);
    for (int i = 1; i < c.length; i++) {
      to(c[i]);
    }
  }

  private void polygon(Polygon p) {
    if (!ring(p.getExteriorRing().getCoordinateSequence(), true)) {
      return;
    }
    for (int i = 0; i < p.getNumInteriorRing(); i++) {
      ring(p.getInteriorRingN(i).getCoordinateSequence(), false);
    }
  }

  /** Writes a ring in the orientation its role needs; false when it has no area left. */
  private boolean ring(CoordinateSequence closed, boolean exterior) {
    long[] c = distinct(closed);
    if (c.length > 1 && c[0] == c[c.length - 1]) {
      c = Arrays.copyOf(c, c.length - 1);
    }
    long area = c.length < 3 ? 0 : surveyorArea(c);
    if (area == 0) {
      return false;
    }
    // MVT 2.1 §4.3.4.4: the surveyor's formula on grid coordinates is positive for exterior rings.
    if ((area > 0) != exterior) {
      c = reverse(c);
    }
    command(MOVE_TO, 1);
    to(c[0]);
    command(LINE_TO, c.length - 1);
    for (int i = 1; i < c.length; i++) {
      to(c[i]);
    }
    command(CLOSE_PATH, 1);
    return true;
  }

  /** Twice the signed area of an open ring of grid points, by the surveyor's (shoelace) formula. */
  private static long surveyorArea(long[] open) {
    long sum = 0;
    for (int i = 0; i < open.length; i++) {
      long a = open[i];
      long b = open[(i + 1) % open.length];
      sum += (long) x(a) * y(b) - (long) x(b) * y(a);
    }
    return sum;
  }

  /** The sequence's coordinates as grid points (x and y packed in a long), repeats dropped. */
  private static long[] distinct(CoordinateSequence seq) {
    long[] out = new long[seq.size()];
    int k = 0;
    for (int i = 0; i < seq.size(); i++) {
      long point = pack(grid(seq.getX(i)), grid(seq.getY(i)));
      if (k == 0 || out[k - 1] != point) {
        out[k++] = point;
      }
    }
    return k == out.length ? out : Arrays.copyOf(out, k);
  }

  private static int grid(double v) {
    return (int) Math.round(v);
  }

  private static long pack(int x, int y) {
    return ((long) x << 32) | (y & 0xffffffffL);
  }

  private static int x(long point) {
    return (int) (point >> 32);
  }

  private static int y(long point) {
    return (int) point;
  }

  /** An open ring walked the other way from the same first point. */
  private static long[] reverse(long[] c) {
    long[] r = new long[c.length];
    r[0] = c[0];
    for (int i = 1; i < c.length; i++) {
      r[i] = c[c.length - i];
    }
    return r;
  }

  private void command(int id, int count) {
    add((id & 0x7) | (count << 3));
  }

  private void to(long point) {
    to(x(point), y(point));
  }

  private void to(int x, int y) {
    add(Protobuf.zigzag(x - cursorX));
    add(Protobuf.zigzag(y - cursorY));
    cursorX = x;
    cursorY = y;
  }

  private void add(int value) {
    if (n == out.length) {
      out = Arrays.copyOf(out, n * 2);
    }
    out[n++] = value;
  }
}
