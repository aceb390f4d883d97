package io.tilebeam.transforms.repair;

import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.algorithm.CGAlgorithmsDD;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;

/**
 * Snap rounding onto the integer grid (Hobby; Guibas and Marimont), for rings in grid units: the
 * pixel (the unit square around a grid point) of every vertex and of every point where two segments
 * cross is hot, and each segment becomes the path through the centres of the hot pixels it passes,
 * in order. No two edges of the result cross, and none passes through a grid point that is not one
 * of its ends (a segment from pixel A to pixel B passes every pixel whose centre lies between A's
 * and B's centres), so the result is a planar graph on grid points.
 *
 * <p>JTS's {@code SnapRoundingNoder} does the same for any precision, and looks each segment up in
 * a tree of every hot pixel and tests it against the near ones: most of the time of a tile at a low
 * zoom. On unit pixels, a bitmap of the hot ones ({@link HotPixels}) answers for each pixel a
 * segment passes, and the pixels come in the segment's order: the cost grows with the vertices, the
 * crossings and the pixels the segments pass, with no tree and no sort.
 */
final class GridSnapper {

  /**
   * Receives each ring's snapped path, its grid points in order, back to its first; {@code pixel}
   * is the point's id among the hot pixels, 0, 1, 2, ... (the same for the same point).
   */
  interface Path {
    void point(int ring, int pixel, int x, int y);
  }

  /** Coordinates beyond this many units from 0 are not snapped here (a tile is a few thousand). */
  static final double MAX_UNITS = 1 << 20;

  private final List<CoordinateSequence> rings;
  private HotPixels hot;

  // Every segment of every ring, flat: from (x0, y0) to (x1, y1); the first `segments` of each
  // array (this thread's Scratch arrays, which may be longer).
  private final int segments;
  private final double[] x0;
  private final double[] y0;
  private final double[] x1;
  private final double[] y1;
  // The hot pixel ids of each segment's ends: most points a walk emits, known without a lookup.
  private final int[] startPixel;
  private final int[] endPixel;

  private GridSnapper(List<CoordinateSequence> rings, int segments) {
    this.rings = rings;
    this.segments = segments;
    x0 = Scratch.doubles(Scratch.Slot.SEGMENT_X0, segments);
    y0 = Scratch.doubles(Scratch.Slot.SEGMENT_Y0, segments);
    x1 = Scratch.doubles(Scratch.Slot.SEGMENT_X1, segments);
    y1 = Scratch.doubles(Scratch.Slot.SEGMENT_Y1, segments);
    startPixel = Scratch.ints(Scratch.Slot.SEGMENT_START, segments);
    endPixel = Scratch.ints(Scratch.Slot.SEGMENT_END, segments);
  }

  /**
   * Snap-rounds the closed rings and hands each one's path to {@code path}, ring by ring in order.
   * One snap rounding at a time per thread: its arrays are the thread's {@link Scratch} arrays.
   *
   * @throws IllegalArgumentException when a coordinate is not finite or lies beyond {@link
   *     #MAX_UNITS}
   */
  static void snap(List<CoordinateSequence> rings, Path path) {
    int segments = 0;
    for (CoordinateSequence ring : rings) {
      segments += Math.max(0, ring.size() - 1);
    }
    GridSnapper s = new GridSnapper(rings, segments);
    // Every vertex is a hot pixel, most of them distinct: one per segment, and a ring's last. All
    // lie in the vertices' box, crossings too (each inside two segments' boxes).
    try (HotPixels hot = s.pixelsOfVertices(segments + rings.size())) {
      s.hot = hot;
      s.collect();
      s.addCrossings();
      s.walk(path);
    }
  }

  /**
   * Room for the hot pixels, over the box of the vertices' pixels.
   *
   * @throws IllegalArgumentException when a coordinate is not finite or lies beyond {@link
   *     #MAX_UNITS}
   */
  private HotPixels pixelsOfVertices(int expected) {
    double minX = Double.POSITIVE_INFINITY;
    double minY = Double.POSITIVE_INFINITY;
    double maxX = Double.NEGATIVE_INFINITY;
    double maxY = Double.NEGATIVE_INFINITY;
    for (CoordinateSequence ring : rings) {
      for (int i = 0; i < ring.size(); i++) {
        double x = ring.getX(i);
        double y = ring.getY(i);
        if (!(Math.abs(x) <= MAX_UNITS && Math.abs(y) <= MAX_UNITS)) {
          throw new IllegalArgumentException("coordinate beyond the grid: " + x + " " + y);
        }
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
    if (minX > maxX) {
      return new HotPixels(0, 0, 0, 0, 0);
    }
    return new HotPixels(expected, pixel(minX), pixel(minY), pixel(maxX), pixel(maxY));
  }

  /** The segments, and the pixel of every vertex, hot. */
  private void collect() {
    int k = 0;
    for (CoordinateSequence ring : rings) {
      int previous = -1;
      for (int i = 0; i < ring.size(); i++) {
        double x = ring.getX(i);
        double y = ring.getY(i);
        int id = hot.add(pixel(x), pixel(y));
        if (i > 0) {
          x0[k] = ring.getX(i - 1);
          y0[k] = ring.getY(i - 1);
          x1[k] = x;
          y1[k] = y;
          startPixel[k] = previous;
          endPixel[k] = id;
          k++;
        }
        previous = id;
      }
    }
  }

  /**
   * The pixel of every point where two segments cross inside both, hot. Where they only touch or
   * overlap, the points in common that matter are vertices, whose pixels are hot already.
   */
  private void addCrossings() {
    int n = segments;
    double[] minX = Scratch.doubles(Scratch.Slot.BOX_MIN_X, n);
    double[] minY = Scratch.doubles(Scratch.Slot.BOX_MIN_Y, n);
    double[] maxX = Scratch.doubles(Scratch.Slot.BOX_MAX_X, n);
    double[] maxY = Scratch.doubles(Scratch.Slot.BOX_MAX_Y, n);
    for (int k = 0; k < n; k++) {
      minX[k] = Math.min(x0[k], x1[k]);
      maxX[k] = Math.max(x0[k], x1[k]);
      minY[k] = Math.min(y0[k], y1[k]);
      maxY[k] = Math.max(y0[k], y1[k]);
    }
    BoxPairs.visit(
        minX,
        minY,
        maxX,
        maxY,
        n,
        (a, b) -> {
          // Most pairs are a ring's consecutive segments, which share an end: no crossing inside
          // both (an orientation is 0), found without computing one.
          if ((x1[a] == x0[b] && y1[a] == y0[b])
              || (x0[a] == x1[b] && y0[a] == y1[b])
              || !crossInside(a, b)) {
            return;
          }
          Coordinate c =
              CGAlgorithmsDD.intersection(
                  new Coordinate(x0[a], y0[a]),
                  new Coordinate(x1[a], y1[a]),
                  new Coordinate(x0[b], y0[b]),
                  new Coordinate(x1[b], y1[b]));
          if (c == null || !Double.isFinite(c.x) || !Double.isFinite(c.y)) {
            return;
          }
          // The point lies in both boxes; a nearly parallel pair may compute it a little outside.
          double x = clamp(c.x, Math.max(minX[a], minX[b]), Math.min(maxX[a], maxX[b]));
          double y = clamp(c.y, Math.max(minY[a], minY[b]), Math.min(maxY[a], maxY[b]));
          hot.add(pixel(x), pixel(y));
        });
  }

  /** Whether segments {@code a} and {@code b} cross at a point inside both. */
  private boolean crossInside(int a, int b) {
    int p = CGAlgorithmsDD.orientationIndex(x0[a], y0[a], x1[a], y1[a], x0[b], y0[b]);
    int q = CGAlgorithmsDD.orientationIndex(x0[a], y0[a], x1[a], y1[a], x1[b], y1[b]);
    if (p * q >= 0) {
      return false;
    }
    int r = CGAlgorithmsDD.orientationIndex(x0[b], y0[b], x1[b], y1[b], x0[a], y0[a]);
    int s = CGAlgorithmsDD.orientationIndex(x0[b], y0[b], x1[b], y1[b], x1[a], y1[a]);
    return r * s < 0;
  }

  /** Each ring's segments, each through the hot pixels it passes. */
  private void walk(Path path) {
    // Sorting the hot pixels pays only where long segments along an axis pass many more pixels
    // than there are hot ones (a tile's edge beside a few vertices).
    double alongAxis = 0;
    for (int j = 0; j < segments; j++) {
      if (longAlongAxis(j)) {
        alongAxis += Math.abs(x1[j] - x0[j]) + Math.abs(y1[j] - y0[j]);
      }
    }
    if (alongAxis > PIXELS_PER_SORTED * hot.size()) {
      sortHotPixels();
    }
    int k = 0;
    for (int r = 0; r < rings.size(); r++) {
      Emitter out = new Emitter(path, r);
      for (int i = 1; i < rings.get(r).size(); i++, k++) {
        out.segment(startPixel[k], endPixel[k]);
        passHotPixels(k, out);
      }
    }
  }

  /**
   * Emits the centres of the hot pixels segment {@code k} passes, in its direction: column by
   * column of pixels, and in each column the rows its stretch there spans.
   */
  private void passHotPixels(int k, Emitter out) {
    double ax = x0[k];
    double ay = y0[k];
    double bx = x1[k];
    double by = y1[k];
    if (byColumn != null && longAlongAxis(k)) {
      passAlongAxis(ax, ay, bx, by, out);
      return;
    }
    double left = Math.min(ax, bx);
    double right = Math.max(ax, bx);
    int first = pixel(ax);
    int last = pixel(bx);
    int step = last >= first ? 1 : -1;
    boolean up = by >= ay;
    for (int c = first; ; c += step) {
      double ya;
      double yb;
      if (ax == bx) {
        ya = ay;
        yb = by;
      } else {
        ya = yAt(Math.max(left, c - 0.5), ax, ay, bx, by);
        yb = yAt(Math.min(right, c + 0.5), ax, ay, bx, by);
      }
      int lo = pixel(Math.min(ya, yb));
      int hi = pixel(Math.max(ya, yb));
      if (up) {
        for (int row = lo; row <= hi; row++) {
          out.emitIfHot(c, row);
        }
      } else {
        for (int row = hi; row >= lo; row--) {
          out.emitIfHot(c, row);
        }
      }
      if (c == last) {
        return;
      }
    }
  }

  /**
   * Segments along a grid axis longer than this many units find their hot pixels in a sorted index
   * rather than pixel by pixel: a wound piece's slices run along their tile's edges, thousands of
   * pixels each, with few hot ones among them.
   */
  private static final double LONG_SEGMENT = 32;

  /** Pixels along long axis-parallel segments per hot pixel from which the sort pays. */
  private static final double PIXELS_PER_SORTED = 16;

  /** Whether segment {@code k} runs along an axis for more than {@link #LONG_SEGMENT} units. */
  private boolean longAlongAxis(int k) {
    return (x0[k] == x1[k] || y0[k] == y1[k])
        && Math.abs(x1[k] - x0[k]) + Math.abs(y1[k] - y0[k]) > LONG_SEGMENT;
  }

  // Hot pixels sorted by column then row, and by row then column; made only where it pays.
  private long[] byColumn;
  private long[] byRow;

  /**
   * An axis-parallel segment's hot pixels in its direction, looked up in the sorted index: the same
   * pixels as the walk, which for such a segment is one column's rows or one row's columns.
   */
  private void passAlongAxis(double ax, double ay, double bx, double by, Emitter out) {
    boolean vertical = ax == bx;
    int line = vertical ? pixel(ax) : pixel(ay);
    int from = vertical ? pixel(ay) : pixel(ax);
    int to = vertical ? pixel(by) : pixel(bx);
    long[] index = vertical ? byColumn : byRow;
    long lo = sortKey(line, Math.min(from, to));
    long hi = sortKey(line, Math.max(from, to));
    int first = lowerBound(index, lo);
    int last = lowerBound(index, hi + 1) - 1;
    for (int i = 0; i <= last - first; i++) {
      long key = index[from <= to ? first + i : last - i];
      int along = (int) key ^ Integer.MIN_VALUE;
      if (vertical) {
        out.emitIfHot(line, along);
      } else {
        out.emitIfHot(along, line);
      }
    }
  }

  private void sortHotPixels() {
    byColumn = new long[hot.size()];
    byRow = new long[hot.size()];
    for (int id = 0; id < hot.size(); id++) {
      byColumn[id] = sortKey(hot.x(id), hot.y(id));
      byRow[id] = sortKey(hot.y(id), hot.x(id));
    }
    Arrays.sort(byColumn);
    Arrays.sort(byRow);
  }

  /** A key that sorts by {@code major} then {@code minor}, both signed. */
  private static long sortKey(int major, int minor) {
    return ((long) major << 32) | ((minor ^ Integer.MIN_VALUE) & 0xffffffffL);
  }

  /** The first index whose key is at least {@code key}, in keys that are all different. */
  private static int lowerBound(long[] sorted, long key) {
    int i = Arrays.binarySearch(sorted, key);
    return i >= 0 ? i : -i - 1;
  }

  /** The segment's y at {@code x}, exactly at its ends. */
  private static double yAt(double x, double ax, double ay, double bx, double by) {
    if (x == ax) {
      return ay;
    }
    if (x == bx) {
      return by;
    }
    return ay + (x - ax) * (by - ay) / (bx - ax);
  }

  /** The index of the pixel holding {@code v}: pixels are half-open, [i − ½, i + ½). */
  static int pixel(double v) {
    return (int) Math.floor(v + 0.5);
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  /** One ring's path: hot pixel centres, each once where segments meet. */
  private final class Emitter {
    private final Path path;
    private final int ring;
    private boolean started;
    private int lastX;
    private int lastY;
    private int start;
    private int end;

    Emitter(Path path, int ring) {
      this.path = path;
      this.ring = ring;
    }

    /** The next segment runs from hot pixel {@code start} to hot pixel {@code end}. */
    void segment(int start, int end) {
      this.start = start;
      this.end = end;
    }

    void emitIfHot(int x, int y) {
      // Small enough to be inlined into the walk, which calls it for every pixel it passes.
      if (hot.contains(x, y) && (!started || x != lastX || y != lastY)) {
        emit(x, y);
      }
    }

    private void emit(int x, int y) {
      started = true;
      lastX = x;
      lastY = y;
      path.point(ring, idOf(x, y), x, y);
    }

    /** The id of a hot pixel the segment passes: one of its ends' without a lookup. */
    private int idOf(int x, int y) {
      if (x == hot.x(end) && y == hot.y(end)) {
        return end;
      }
      if (x == hot.x(start) && y == hot.y(start)) {
        return start;
      }
      return hot.idOf(x, y);
    }
  }
}
