package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.locationtech.jts.algorithm.Area;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;

/**
 * Makes a polygonal geometry valid on the integer grid in one sweep: the area where its rings wind
 * at least once (shells counted +1 inside, holes −1), its boundary snap-rounded onto the grid.
 *
 * <p>A piece simplified and rounded to a vector tile's grid folds where simplification moved an
 * island onto its neighbour or a ring across itself. Merging those with a chain of JTS overlays
 * costs an overlay per group and a snap-rounding after; here every ring is noded once, by snap
 * rounding ({@link GridSnapper}: all vertices and crossings moved to grid points, no two edges
 * crossing after), and the rest is counting on integers:
 *
 * <ol>
 *   <li>each noded edge carries how much the winding number changes across it (edges drawn twice
 *       add up; a shell's edge and a hole's along the same grid points cancel and vanish);
 *   <li>the edges around each grid point are sorted by angle, and the faces of the arrangement are
 *       walked, each with the face on its left;
 *   <li>one face of each connected part of the arrangement gets its winding number by counting the
 *       edges a horizontal line between grid rows crosses to its left; the others follow across
 *       their edges;
 *   <li>the edges with winding ≥ 1 on their left only are linked into rings, turning as sharply
 *       left as they can at each point (so rings that touch at a point come out as separate rings,
 *       as validity wants), and each hole goes into the smallest shell that holds it.
 * </ol>
 *
 * The result is valid by construction; a caller still checks it, and falls back on slower repair if
 * a case no one foresaw is not.
 *
 * <p>The working arrays are the thread's {@link Scratch} arrays, kept for its next union: a thread
 * runs one union at a time.
 */
public final class GridUnion {

  private final GeometryFactory factory;

  // Grid points: dense ids in the order the paths reach them, from the snapper's ids of its hot
  // pixels (-1: not reached yet, for the first `pixelsKnown`). Sized for the input's points: snap
  // rounding makes about one grid point and one edge of each (rarely more), so nothing grows as it
  // is filled. The arrays are this thread's Scratch arrays, reused by its next union.
  private int[] idOfPixel;
  private int pixelsKnown;
  private int points;
  private int[] px;
  private int[] py;

  // Edges (from < to by id) and the change of winding number from their right to their left.
  private final PairIds edgeIds;
  private int[] from;
  private int[] to;
  private int[] delta;
  private int edges;

  // Whether a grid point has more than one boundary half-edge leaving it.
  private boolean ringsMeet;

  // Whether the rings of a polygon touch in a cycle.
  private boolean touchesCut;

  private GridUnion(GeometryFactory factory, int points) {
    this.factory = factory;
    int expected = Math.max(256, points);
    idOfPixel = Scratch.ints(Scratch.Slot.UNION_ID_OF_PIXEL, expected, -1);
    pixelsKnown = expected;
    px = Scratch.ints(Scratch.Slot.UNION_X, expected);
    // As long as px at least, so that both grow together when px is full.
    py = Scratch.ints(Scratch.Slot.UNION_Y, px.length);
    edgeIds =
        new PairIds(
            expected, Scratch.Slot.EDGE_KEYS, Scratch.Slot.EDGE_VALUES, Scratch.Slot.EDGE_USED);
    from = Scratch.ints(Scratch.Slot.UNION_FROM, expected);
    to = Scratch.ints(Scratch.Slot.UNION_TO, from.length);
    delta = Scratch.ints(Scratch.Slot.UNION_DELTA, from.length);
  }

  /**
   * A grid union, and whether two of its rings, or one with itself, meet at a grid point.
   *
   * @param geometry the area where the rings wind at least once
   * @param ringsMeet false when no grid point lies on two rings nor twice on one: the rings are
   *     then pairwise disjoint simple rings (snap rounding leaves no crossing and no point inside
   *     an edge), each hole in the smallest shell around it, so the result is valid without a
   *     check; true where rings touch, which validity allows only in some ways
   * @param touchesCut whether the rings of one polygon touch in a cycle (two holes touching twice,
   *     a hole touching its shell twice, a chain of touching holes back to its start), which cuts
   *     the polygon's interior in two: the one way the result can be invalid
   */
  public record Result(Geometry geometry, boolean ringsMeet, boolean touchesCut) {

    /**
     * Whether the result is valid by construction: snap rounding leaves no crossing and no grid
     * point inside an edge, each ring passes a point once, holes sit in the smallest shell around
     * them, and no touches cut an interior.
     */
    public boolean valid() {
      return !touchesCut;
    }
  }

  /**
   * The area of {@code polygonal} (in grid units) where its rings wind at least once, on the
   * integer grid: valid, possibly empty.
   */
  public static Geometry union(Geometry polygonal) {
    return unite(polygonal).geometry();
  }

  /** {@link #union} and whether its rings meet anywhere. */
  public static Result unite(Geometry polygonal) {
    GridUnion u = new GridUnion(polygonal.getFactory(), polygonal.getNumPoints());
    u.addRings(polygonal);
    Geometry g = u.build();
    return new Result(g, u.ringsMeet, u.touchesCut);
  }

  /** Every ring noded by snap rounding, its edges added with the winding they change. */
  private void addRings(Geometry polygonal) {
    List<CoordinateSequence> rings = new ArrayList<>();
    int[] signs = new int[8];
    for (int i = 0; i < polygonal.getNumGeometries(); i++) {
      if (!(polygonal.getGeometryN(i) instanceof Polygon p) || p.isEmpty()) {
        continue;
      }
      for (int r = 0; r <= p.getNumInteriorRing(); r++) {
        LinearRing ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
        CoordinateSequence c = ring.getCoordinateSequence();
        if (c.size() < 4) {
          continue;
        }
        // +1 where the ring, walked this way, has its inside on its left: a shell winds +1
        // around its inside, a hole -1.
        // JTS's signed ring area is positive for clockwise rings.
        boolean anticlockwise = signedArea(c) <= 0;
        if (rings.size() == signs.length) {
          signs = Arrays.copyOf(signs, signs.length * 2);
        }
        signs[rings.size()] = (r == 0) == anticlockwise ? 1 : -1;
        rings.add(c);
      }
    }
    int[] previous = {-1, -1};
    int[] sign = signs;
    GridSnapper.snap(
        rings,
        (ring, pixel, x, y) -> {
          if (ring != previous[0]) {
            previous[0] = ring;
            previous[1] = -1;
          }
          int next = point(pixel, x, y);
          if (previous[1] >= 0 && next != previous[1]) {
            addEdge(previous[1], next, sign[ring]);
          }
          previous[1] = next;
        });
  }

  /**
   * JTS's {@code Area.ofRingSigned} (positive for clockwise rings), the same arithmetic in the same
   * order, without the coordinates it makes: a wound piece has thousands of rings.
   */
  static double signedArea(CoordinateSequence ring) {
    int n = ring.size();
    if (n < 3) {
      return 0;
    }
    double x0 = ring.getX(0);
    double previousY = ring.getY(0);
    double x = ring.getX(1) - x0;
    double y = ring.getY(1);
    double sum = 0;
    for (int i = 1; i < n - 1; i++) {
      double nextX = ring.getX(i + 1) - x0;
      double nextY = ring.getY(i + 1);
      sum += x * (previousY - nextY);
      previousY = y;
      x = nextX;
      y = nextY;
    }
    return sum / 2.0;
  }

  /** The id of the grid point that is the snapper's hot pixel {@code pixel}. */
  private int point(int pixel, int x, int y) {
    if (pixel >= pixelsKnown) {
      int known = pixelsKnown;
      pixelsKnown = Math.max(pixel + 1, known * 2);
      if (pixelsKnown > idOfPixel.length) {
        idOfPixel = Arrays.copyOf(idOfPixel, pixelsKnown);
      }
      Arrays.fill(idOfPixel, known, pixelsKnown, -1);
    }
    int id = idOfPixel[pixel];
    if (id >= 0) {
      return id;
    }
    id = points++;
    idOfPixel[pixel] = id;
    if (id == px.length) {
      px = Arrays.copyOf(px, id * 2);
      py = Arrays.copyOf(py, id * 2);
    }
    px[id] = x;
    py[id] = y;
    return id;
  }

  /** Adds the edge a→b of a ring whose inside is on its left when {@code sign} is +1. */
  private void addEdge(int a, int b, int sign) {
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    int e = edgeIds.idOf(lo, hi);
    if (e == edges) {
      if (e == from.length) {
        from = Arrays.copyOf(from, e * 2);
        to = Arrays.copyOf(to, e * 2);
        delta = Arrays.copyOf(delta, e * 2);
      }
      from[e] = lo;
      to[e] = hi;
      delta[e] = 0;
      edges++;
    }
    delta[e] += a == lo ? sign : -sign;
  }

  /** The arrangement's faces walked, wound, and the boundary of winding ≥ 1 made into polygons. */
  private Geometry build() {
    // Half-edges 2k (from→to) and 2k+1 (to→from) of the edges left after cancelling out.
    int[] kept = Scratch.ints(Scratch.Slot.UNION_KEPT, edges);
    int n = 0;
    for (int e = 0; e < edges; e++) {
      if (delta[e] != 0) {
        kept[n++] = e;
      }
    }
    if (n == 0) {
      return factory.createMultiPolygon();
    }
    Arrangement a = new Arrangement(n, kept);
    int[] left = a.windings();
    List<int[]> meetings = new ArrayList<>();
    List<Coordinate[]> rings = a.boundary(left, meetings);
    return polygons(rings, meetings);
  }

  /** The faces of the kept edges: half-edges sorted around their points, walked into cycles. */
  private final class Arrangement {
    private final int halves;
    private final int[] hFrom;
    private final int[] hTo;
    private final int[] hDelta;
    private final int[] start;
    private final int[] around;
    private final int[] position;
    private final int[] next;
    private final int[] cycle;
    private int cycles;

    Arrangement(int n, int[] kept) {
      halves = 2 * n;
      hFrom = Scratch.ints(Scratch.Slot.HALF_FROM, halves);
      hTo = Scratch.ints(Scratch.Slot.HALF_TO, halves);
      hDelta = Scratch.ints(Scratch.Slot.HALF_DELTA, halves);
      for (int k = 0; k < n; k++) {
        int e = kept[k];
        hFrom[2 * k] = from[e];
        hTo[2 * k] = to[e];
        hDelta[2 * k] = delta[e];
        hFrom[2 * k + 1] = to[e];
        hTo[2 * k + 1] = from[e];
        hDelta[2 * k + 1] = -delta[e];
      }
      int points = GridUnion.this.points;
      start = Scratch.ints(Scratch.Slot.HALF_START, points + 1, 0);
      for (int h = 0; h < halves; h++) {
        start[hFrom[h] + 1]++;
      }
      for (int p = 0; p < points; p++) {
        start[p + 1] += start[p];
      }
      around = Scratch.ints(Scratch.Slot.HALF_AROUND, halves);
      int[] fill = Scratch.ints(Scratch.Slot.HALF_FILL, points);
      System.arraycopy(start, 0, fill, 0, points);
      for (int h = 0; h < halves; h++) {
        around[fill[hFrom[h]]++] = h;
      }
      position = Scratch.ints(Scratch.Slot.HALF_POSITION, halves);
      for (int p = 0; p < points; p++) {
        sortByAngle(start[p], start[p + 1]);
        for (int i = start[p]; i < start[p + 1]; i++) {
          position[around[i]] = i;
        }
      }
      next = Scratch.ints(Scratch.Slot.HALF_NEXT, halves);
      for (int h = 0; h < halves; h++) {
        next[h] = turnLeft(h ^ 1);
      }
      cycle = Scratch.ints(Scratch.Slot.HALF_CYCLE, halves, -1);
      for (int h = 0; h < halves; h++) {
        if (cycle[h] < 0) {
          for (int g = h; cycle[g] < 0; g = next[g]) {
            cycle[g] = cycles;
          }
          cycles++;
        }
      }
    }

    /** The outgoing half-edge first clockwise after {@code out} around its point. */
    private int turnLeft(int out) {
      int p = hFrom[out];
      int i = position[out];
      return around[i == start[p] ? start[p + 1] - 1 : i - 1];
    }

    /** Sorts {@code around[lo, hi)} anticlockwise by direction, starting from the +x axis. */
    private void sortByAngle(int lo, int hi) {
      // Insertion sort: almost every point has two or four half-edges.
      for (int i = lo + 1; i < hi; i++) {
        int h = around[i];
        int j = i - 1;
        while (j >= lo && compareAngle(around[j], h) > 0) {
          around[j + 1] = around[j];
          j--;
        }
        around[j + 1] = h;
      }
    }

    private int compareAngle(int a, int b) {
      long ax = px[hTo[a]] - (long) px[hFrom[a]];
      long ay = py[hTo[a]] - (long) py[hFrom[a]];
      long bx = px[hTo[b]] - (long) px[hFrom[b]];
      long by = py[hTo[b]] - (long) py[hFrom[b]];
      int ha = half(ax, ay);
      int hb = half(bx, by);
      if (ha != hb) {
        return Integer.compare(ha, hb);
      }
      return Long.signum(bx * ay - ax * by);
    }

    /** 0 for directions in [0°, 180°), 1 for [180°, 360°). */
    private static int half(long x, long y) {
      return y > 0 || (y == 0 && x > 0) ? 0 : 1;
    }

    /**
     * The winding number on the left of each half-edge: one count along a grid row per connected
     * part, the rest carried across edges (the left of a half-edge winds its change more than the
     * left of its twin).
     */
    int[] windings() {
      int[] ofCycle = Scratch.ints(Scratch.Slot.CYCLE_WINDING, cycles);
      boolean[] known = Scratch.falses(Scratch.Slot.CYCLE_KNOWN, cycles);
      int[] seedOf = Scratch.ints(Scratch.Slot.CYCLE_SEED, cycles, -1);
      for (int h = 0; h < halves; h++) {
        if (seedOf[cycle[h]] < 0 && py[hFrom[h]] != py[hTo[h]]) {
          seedOf[cycle[h]] = h;
        }
      }
      // Half-edges of each cycle, to carry the winding across from a known cycle.
      int[] cStart = Scratch.ints(Scratch.Slot.CYCLE_START, cycles + 1, 0);
      for (int h = 0; h < halves; h++) {
        cStart[cycle[h] + 1]++;
      }
      for (int c = 0; c < cycles; c++) {
        cStart[c + 1] += cStart[c];
      }
      int[] members = Scratch.ints(Scratch.Slot.CYCLE_MEMBERS, halves);
      int[] fill = Scratch.ints(Scratch.Slot.CYCLE_FILL, cycles);
      System.arraycopy(cStart, 0, fill, 0, cycles);
      for (int h = 0; h < halves; h++) {
        members[fill[cycle[h]]++] = h;
      }
      // Each connected part's cycles wound relative to its first cycle that has a seed; then the
      // seeds' windings counted together, row by row.
      int[] relative = Scratch.ints(Scratch.Slot.CYCLE_RELATIVE, cycles, 0);
      int[] part = Scratch.ints(Scratch.Slot.CYCLE_PART, cycles);
      int[] seeds = Scratch.ints(Scratch.Slot.CYCLE_SEEDS, cycles);
      int parts = 0;
      int[] queue = Scratch.ints(Scratch.Slot.CYCLE_QUEUE, cycles);
      for (int c0 = 0; c0 < cycles; c0++) {
        if (known[c0]) {
          continue;
        }
        int seed = seedOf[c0];
        if (seed < 0) {
          // A cycle of horizontal edges only has no area; the walk reaches it from its twins'.
          continue;
        }
        seeds[parts] = seed;
        part[c0] = parts;
        known[c0] = true;
        int head = 0;
        int tail = 0;
        queue[tail++] = c0;
        while (head < tail) {
          int c = queue[head++];
          for (int i = cStart[c]; i < cStart[c + 1]; i++) {
            int h = members[i];
            int other = cycle[h ^ 1];
            if (!known[other]) {
              relative[other] = relative[c] - hDelta[h];
              part[other] = parts;
              known[other] = true;
              queue[tail++] = other;
            }
          }
        }
        parts++;
      }
      int[] base = parts == 0 ? new int[0] : new RowIndex().leftOf(seeds, parts);
      for (int c = 0; c < cycles; c++) {
        ofCycle[c] = known[c] ? base[part[c]] + relative[c] : 0;
      }
      int[] left = Scratch.ints(Scratch.Slot.HALF_LEFT, halves);
      for (int h = 0; h < halves; h++) {
        left[h] = ofCycle[cycle[h]];
      }
      return left;
    }

    /**
     * The rings of the area winding ≥ 1: half-edges with it on their left only, linked at each
     * point by the sharpest left turn among them. Adds to {@code meetings}, for each ring, the
     * points where it meets another ring.
     */
    List<Coordinate[]> boundary(int[] left, List<int[]> meetings) {
      boolean[] out = Scratch.falses(Scratch.Slot.BOUNDARY_OUT, halves);
      boolean[] leaves = Scratch.falses(Scratch.Slot.BOUNDARY_LEAVES, points);
      meetAt = Scratch.falses(Scratch.Slot.BOUNDARY_MEET, points);
      for (int h = 0; h < halves; h++) {
        out[h] = left[h] >= 1 && left[h ^ 1] < 1;
        if (out[h]) {
          meetAt[hFrom[h]] |= leaves[hFrom[h]];
          ringsMeet |= leaves[hFrom[h]];
          leaves[hFrom[h]] = true;
        }
      }
      boolean[] used = Scratch.falses(Scratch.Slot.BOUNDARY_USED, halves);
      int[] seenAt = Scratch.ints(Scratch.Slot.BOUNDARY_SEEN, points, -1);
      int[] walk = new int[16];
      List<Coordinate[]> rings = new ArrayList<>();
      for (int h0 = 0; h0 < halves; h0++) {
        if (!out[h0] || used[h0]) {
          continue;
        }
        int n = 0;
        int h = h0;
        while (!used[h]) {
          used[h] = true;
          if (n == walk.length) {
            walk = Arrays.copyOf(walk, n * 2);
          }
          walk[n++] = hFrom[h];
          h = nextOut(h, out);
        }
        if (h != h0) {
          throw new IllegalStateException("boundary does not close at point " + hFrom[h0]);
        }
        n = splitLoops(walk, n, seenAt, rings, meetings);
        rings.add(ring(walk, 0, n));
        meetings.add(meetings(walk, 0, n));
      }
      return rings;
    }

    // The grid points where boundary rings meet.
    private boolean[] meetAt;

    /** The points of {@code walk[from, to)} where rings meet. */
    private int[] meetings(int[] walk, int from, int to) {
      if (!ringsMeet) {
        return new int[0];
      }
      int n = 0;
      for (int i = from; i < to; i++) {
        n += meetAt[walk[i]] ? 1 : 0;
      }
      int[] m = new int[n];
      n = 0;
      for (int i = from; i < to; i++) {
        if (meetAt[walk[i]]) {
          m[n++] = walk[i];
        }
      }
      return m;
    }

    /** The boundary half-edge that follows {@code h}: the sharpest left turn among them. */
    private int nextOut(int h, boolean[] out) {
      int g = turnLeft(h ^ 1);
      for (int turns = 0; !out[g]; turns++) {
        if (turns > start[hFrom[g] + 1] - start[hFrom[g]]) {
          throw new IllegalStateException("no boundary leaves point " + hFrom[g]);
        }
        g = turnLeft(g);
      }
      return g;
    }

    /**
     * Takes each loop that comes back to a point the walk passed before out of the walk as a ring
     * of its own (a hole touching its shell at one point is walked as part of the shell), leaving
     * the walk simple; returns its new length.
     */
    private int splitLoops(
        int[] walk, int n, int[] seenAt, List<Coordinate[]> rings, List<int[]> meetings) {
      int k = 0;
      for (int i = 0; i < n; i++) {
        int p = walk[i];
        if (seenAt[p] >= 0) {
          int from = seenAt[p];
          rings.add(ring(walk, from, k));
          meetings.add(meetings(walk, from, k));
          for (int j = from + 1; j < k; j++) {
            seenAt[walk[j]] = -1;
          }
          k = from + 1;
          continue;
        }
        seenAt[p] = k;
        walk[k++] = p;
      }
      for (int j = 0; j < k; j++) {
        seenAt[walk[j]] = -1;
      }
      return k;
    }

    /** The closed ring of the points {@code walk[from, to)}. */
    private Coordinate[] ring(int[] walk, int from, int to) {
      Coordinate[] c = new Coordinate[to - from + 1];
      for (int i = from; i < to; i++) {
        c[i - from] = new Coordinate(px[walk[i]], py[walk[i]]);
      }
      c[to - from] = c[0].copy();
      return c;
    }

    /** The half-edges that cross each row between grid points, by bands of rows. */
    private final class RowIndex {
      private final int minY;
      // Rows per band, 2^shift: one where the edges are short, more where long ones (a slice along
      // its tile's side) would make the index hold many entries per edge.
      private final int shift;
      // The non-horizontal edges that cross band b's rows: entries[start[b], start[b + 1]).
      private final int[] start;
      private final int[] entries;

      RowIndex() {
        int lo = Integer.MAX_VALUE;
        int hi = Integer.MIN_VALUE;
        long crossed = 0;
        int sloped = 0;
        for (int h = 0; h < halves; h += 2) {
          int y0 = Math.min(py[hFrom[h]], py[hTo[h]]);
          int y1 = Math.max(py[hFrom[h]], py[hTo[h]]);
          lo = Math.min(lo, y0);
          hi = Math.max(hi, y1);
          if (y0 != y1) {
            crossed += y1 - y0;
            sloped++;
          }
        }
        minY = lo;
        // At most about two entries per edge for the rows it crosses, and one for the band it
        // ends in.
        int s = 0;
        while (crossed >> s > 2L * sloped) {
          s++;
        }
        shift = s;
        int count = ((hi - lo) >> shift) + 1;
        start = Scratch.ints(Scratch.Slot.ROW_START, count + 1, 0);
        for (int h = 0; h < halves; h += 2) {
          for (int b = firstBand(h), last = lastBand(h); b <= last; b++) {
            start[b + 1]++;
          }
        }
        for (int b = 0; b < count; b++) {
          start[b + 1] += start[b];
        }
        entries = Scratch.ints(Scratch.Slot.ROW_ENTRIES, start[count]);
        int[] fill = Scratch.ints(Scratch.Slot.ROW_FILL, count);
        System.arraycopy(start, 0, fill, 0, count);
        for (int h = 0; h < halves; h += 2) {
          for (int b = firstBand(h), last = lastBand(h); b <= last; b++) {
            entries[fill[b]++] = h;
          }
        }
      }

      /** The band of the first row edge {@code h} crosses: its lower end's y + 0.5. */
      private int firstBand(int h) {
        return (Math.min(py[hFrom[h]], py[hTo[h]]) - minY) >> shift;
      }

      /**
       * The band of the last row edge {@code h} crosses, its upper end's y − 0.5; for a horizontal
       * edge, which crosses none, one below its first.
       */
      private int lastBand(int h) {
        int y0 = Math.min(py[hFrom[h]], py[hTo[h]]);
        int y1 = Math.max(py[hFrom[h]], py[hTo[h]]);
        return y0 == y1 ? firstBand(h) - 1 : (y1 - 1 - minY) >> shift;
      }

      /**
       * The winding number on the left of each of the non-horizontal half-edges {@code seeds[0,
       * n)}: the changes of the edges crossing the row just above its lower end, counted from far
       * left. The seeds on one row are counted in one pass over the row's band: each crossing edge
       * adds its change to every seed to its right.
       */
      int[] leftOf(int[] seeds, int n) {
        long[] byRow = new long[n];
        for (int k = 0; k < n; k++) {
          int h = seeds[k];
          byRow[k] = ((long) (Math.min(py[hFrom[h]], py[hTo[h]]) - minY) << 32) | k;
        }
        Arrays.sort(byRow);
        int[] out = new int[n];
        for (int first = 0, end; first < n; first = end) {
          long rowKey = byRow[first] >>> 32;
          end = first;
          while (end < n && byRow[end] >>> 32 == rowKey) {
            end++;
          }
          int y = (int) rowKey + minY;
          if (end - first == 1) {
            int k = (int) byRow[first];
            out[k] = leftOfOne(y, seeds[k]);
          } else {
            leftOfRow(y, seeds, byRow, first, end, out);
          }
        }
        return out;
      }

      /** Whether the non-horizontal edge {@code e} of band {@code y}'s entries crosses row y. */
      private boolean crossesRow(int e, int y) {
        return shift == 0
            || (Math.min(py[hFrom[e]], py[hTo[e]]) <= y && Math.max(py[hFrom[e]], py[hTo[e]]) > y);
      }

      /**
       * {@link #leftOf} for the one seed {@code h} on row {@code y}: the changes of the edges that
       * cross the row to its left (what {@link #leftOfRow} counts for a row of one seed).
       */
      private int leftOfOne(int y, int h) {
        double row = y + 0.5;
        double x = crossing(h, row);
        int before = 0;
        int b = (y - minY) >> shift;
        for (int i = start[b]; i < start[b + 1]; i++) {
          int e = entries[i];
          if (crossesRow(e, y) && crossing(e, row) < x) {
            before += change(e);
          }
        }
        boolean up = py[hTo[h]] > py[hFrom[h]];
        return up ? before : before + change(h);
      }

      /** {@link #leftOf} for the seeds {@code byRow[first, end)}, all on row {@code y}. */
      private void leftOfRow(int y, int[] seeds, long[] byRow, int first, int end, int[] out) {
        double row = y + 0.5;
        int m = end - first;
        double[] xs = new double[m];
        for (int i = 0; i < m; i++) {
          xs[i] = crossing(seeds[(int) byRow[first + i]], row);
        }
        double[] sorted = xs.clone();
        Arrays.sort(sorted);
        // changes[j]: what the edges between seed j - 1 and seed j (in x) change.
        int[] changes = new int[m + 1];
        int b = (y - minY) >> shift;
        for (int i = start[b]; i < start[b + 1]; i++) {
          int e = entries[i];
          if (crossesRow(e, y)) {
            // A seed's own edge crosses at its own x and counts only for seeds to its right.
            changes[firstAbove(sorted, crossing(e, row))] += change(e);
          }
        }
        for (int j = 1; j <= m; j++) {
          changes[j] += changes[j - 1];
        }
        for (int i = 0; i < m; i++) {
          int k = (int) byRow[first + i];
          int h = seeds[k];
          int before = changes[Arrays.binarySearch(sorted, xs[i])];
          // Left of an upward half-edge is its -x side; of a downward one, its +x side.
          boolean up = py[hTo[h]] > py[hFrom[h]];
          out[k] = up ? before : before + change(h);
        }
      }

      /** The index of the first value in {@code sorted} greater than {@code x}. */
      private static int firstAbove(double[] sorted, double x) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (sorted[mid] > x) {
            hi = mid;
          } else {
            lo = mid + 1;
          }
        }
        return lo;
      }

      /** How the winding changes from the -x side of half-edge {@code h} to its +x side. */
      private int change(int h) {
        boolean up = py[hTo[h]] > py[hFrom[h]];
        return up ? -hDelta[h] : hDelta[h];
      }

      private double crossing(int h, double row) {
        double x0 = px[hFrom[h]];
        double y0 = py[hFrom[h]];
        double x1 = px[hTo[h]];
        double y1 = py[hTo[h]];
        return x0 + (row - y0) * (x1 - x0) / (y1 - y0);
      }
    }
  }

  /**
   * Shells (anticlockwise) with the holes (clockwise) each smallest shell around them holds; {@code
   * meetings} are the points where each ring meets another.
   */
  private Geometry polygons(List<Coordinate[]> rings, List<int[]> meetings) {
    List<LinearRing> shells = new ArrayList<>();
    double[] areas = new double[rings.size()];
    List<LinearRing> holes = new ArrayList<>();
    List<int[]> shellMeetings = new ArrayList<>();
    List<int[]> holeMeetings = new ArrayList<>();
    for (int r = 0; r < rings.size(); r++) {
      Coordinate[] c = rings.get(r);
      double area = -Area.ofRingSigned(c);
      if (area > 0) {
        areas[shells.size()] = area;
        shells.add(factory.createLinearRing(c));
        shellMeetings.add(meetings.get(r));
      } else if (area < 0) {
        holes.add(factory.createLinearRing(c));
        holeMeetings.add(meetings.get(r));
      }
    }
    List<List<LinearRing>> holesOf = new ArrayList<>();
    List<List<int[]>> meetingsOf = new ArrayList<>();
    for (int s = 0; s < shells.size(); s++) {
      holesOf.add(new ArrayList<>());
      meetingsOf.add(new ArrayList<>(List.of(shellMeetings.get(s))));
    }
    if (!holes.isEmpty()) {
      int[] holder = holders(shells, areas, holes);
      for (int k = 0; k < holes.size(); k++) {
        if (holder[k] >= 0) {
          holesOf.get(holder[k]).add(holes.get(k));
          meetingsOf.get(holder[k]).add(holeMeetings.get(k));
        }
      }
    }
    if (ringsMeet) {
      for (List<int[]> ofPolygon : meetingsOf) {
        touchesCut |= touchCycle(ofPolygon);
      }
    }
    Polygon[] polygons = new Polygon[shells.size()];
    for (int s = 0; s < shells.size(); s++) {
      polygons[s] = factory.createPolygon(shells.get(s), holesOf.get(s).toArray(LinearRing[]::new));
    }
    return factory.createMultiPolygon(polygons);
  }

  /**
   * For each hole, the index of the smallest shell whose inside holds it, or -1. Shells are nested
   * or apart (their insides never partly overlap), so among the shells that hold a hole, the
   * smallest is the nearest.
   *
   * <p>Every hole the union makes has a shell around it (area lies on its outside), whose box
   * covers the hole's: so a hole whose box only one shell's box covers is that shell's without a
   * look at their points, and that is most holes (a land layer's lakes inside one large shell). The
   * others try their candidates from the smallest up, the first that holds the hole being the one.
   * Candidates are found as pairs of meeting boxes ({@link BoxPairs}), in one pass for all holes: a
   * tree asked once a hole spent most of this step walking its nodes.
   */
  private static int[] holders(List<LinearRing> shells, double[] areas, List<LinearRing> holes) {
    int ns = shells.size();
    int[] holder = new int[holes.size()];
    if (ns == 1) {
      return holder; // every hole is the one shell's
    }
    Arrays.fill(holder, -1);
    int n = ns + holes.size();
    double[] minX = new double[n];
    double[] minY = new double[n];
    double[] maxX = new double[n];
    double[] maxY = new double[n];
    for (int i = 0; i < n; i++) {
      Envelope e = (i < ns ? shells.get(i) : holes.get(i - ns)).getEnvelopeInternal();
      minX[i] = e.getMinX();
      minY[i] = e.getMinY();
      maxX[i] = e.getMaxX();
      maxY[i] = e.getMaxY();
    }
    // Each shell whose box covers a hole's, as hole << 32 | shell.
    LongStream.Builder covering = LongStream.builder();
    BoxPairs.visit(
        minX,
        minY,
        maxX,
        maxY,
        n,
        (a, b) -> {
          // Shells come first, and a pair's lower index first: a shell and a hole are (a, b).
          if (a < ns
              && b >= ns
              && minX[a] <= minX[b]
              && minY[a] <= minY[b]
              && maxX[a] >= maxX[b]
              && maxY[a] >= maxY[b]) {
            covering.add((long) (b - ns) << 32 | a);
          }
        });
    long[] found = covering.build().sorted().toArray();
    // Each built in linear time: JTS's indexed locator sorts a shell's segments first.
    RingLocator[] locators = new RingLocator[ns];
    for (int i = 0; i < found.length; ) {
      int k = (int) (found[i] >>> 32);
      int j = i + 1;
      while (j < found.length && (int) (found[j] >>> 32) == k) {
        j++;
      }
      holder[k] =
          j - i == 1
              ? (int) found[i]
              : smallestHolding(holes.get(k), found, i, j, shells, areas, locators);
      i = j;
    }
    return holder;
  }

  /**
   * Of the shells in {@code found[from..to)} (as {@code hole << 32 | shell}), the smallest whose
   * inside holds {@code hole}, or -1.
   */
  private static int smallestHolding(
      LinearRing hole,
      long[] found,
      int from,
      int to,
      List<LinearRing> shells,
      double[] areas,
      RingLocator[] locators) {
    Integer[] bySize = new Integer[to - from];
    for (int i = from; i < to; i++) {
      bySize[i - from] = (int) found[i];
    }
    Arrays.sort(bySize, java.util.Comparator.comparingDouble(s -> areas[s]));
    // The middle of an edge of the hole is on no other ring: edges are shared by none.
    Coordinate a = hole.getCoordinateN(0);
    Coordinate b = hole.getCoordinateN(1);
    Coordinate probe = new Coordinate((a.x + b.x) / 2, (a.y + b.y) / 2);
    for (int s : bySize) {
      if (locators[s] == null) {
        locators[s] = RingLocator.of(shells.get(s));
      }
      if (locators[s].locate(probe) == Location.INTERIOR) {
        return s;
      }
    }
    return -1;
  }

  /**
   * Whether one polygon's rings, joined to the points where they meet (each ring's {@code
   * meetings}), form a cycle: rings touching that way cut the interior in two.
   */
  static boolean touchCycle(List<int[]> meetings) {
    if (meetings.size() < 2) {
      return false;
    }
    // Rings are nodes 0..r-1; each meeting point gets a node of its own after them.
    java.util.Map<Integer, Integer> nodeOf = new java.util.HashMap<>();
    int[] parent = new int[meetings.size() + 16];
    for (int r = 0; r < meetings.size(); r++) {
      parent[r] = r;
    }
    int nodes = meetings.size();
    for (int r = 0; r < meetings.size(); r++) {
      for (int p : meetings.get(r)) {
        Integer node = nodeOf.get(p);
        if (node == null) {
          node = nodes++;
          nodeOf.put(p, node);
          if (node == parent.length) {
            parent = Arrays.copyOf(parent, node * 2);
          }
          parent[node] = node;
        }
        int a = UnionFind.root(parent, r);
        int b = UnionFind.root(parent, node);
        if (a == b) {
          return true;
        }
        parent[a] = b;
      }
    }
    return false;
  }
}
