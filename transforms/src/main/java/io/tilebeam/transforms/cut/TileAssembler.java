package io.tilebeam.transforms.cut;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.impl.PackedCoordinateSequence;

/**
 * Turns one polygon's stripe-clipped rings in one tile into valid rings: the bridges that {@link
 * StripeCutter} left along the tile's edges are dropped, and the parts of the rings inside the tile
 * are joined by walking the tile's edge anticlockwise (Weiler–Atherton against a rectangle, as
 * GEOS's {@code RectangleIntersection} does).
 *
 * <p>Shells must run anticlockwise and holes clockwise (east/north axes): then the polygon lies to
 * the left of every ring, and walking the edge anticlockwise from where a ring reaches it keeps the
 * polygon on the left until the next ring leaves it. A ring that only runs along the edge tells
 * whether the tile lies inside it (its area is the tile's) or outside (no area).
 */
final class TileAssembler {

  /** A polygon: its shell, then its holes, each without a closing point. */
  record Polygon(double[] shell, List<double[]> holes) {}

  private final double x0;
  private final double y0;
  private final double x1;
  private final double y1;
  private final double w;
  private final double h;
  private final double snapX;
  private final double snapY;
  private boolean snapped;

  /** An assembler for the tile (buffer included) {@code [x0, x1] × [y0, y1]}. */
  TileAssembler(double x0, double y0, double x1, double y1) {
    this.x0 = x0;
    this.y0 = y0;
    this.x1 = x1;
    this.y1 = y1;
    this.w = x1 - x0;
    this.h = y1 - y0;
    // Data drawn on a grid (land polygons split along meridians and parallels) can run a few
    // hundred-millionths of a unit beside a buffered tile edge that is computed another way. Left
    // there, such a run makes a sliver that is valid in floating point and folds onto the edge
    // once rounded, and the fold costs a repair of the whole piece. Points that close to an edge
    // are put on it, so the sliver is a bridge along the edge and is dropped with the others.
    this.snapX = 1e-12 * w + 64 * Math.ulp(Math.max(Math.abs(x0), Math.abs(x1)));
    this.snapY = 1e-12 * h + 64 * Math.ulp(Math.max(Math.abs(y0), Math.abs(y1)));
  }

  /** Whether a point was put on the tile's edge so far: its pieces are then not exact cuts. */
  boolean snapped() {
    return snapped;
  }

  /** A part of a ring inside the tile, from the edge to the edge. */
  private record Fragment(double[] points, double start, double end) {}

  /** The polygon's part in the tile, from the clipped rings of its shell and holes. */
  List<Polygon> assemble(List<PointBuffer> rings) {
    List<Fragment> fragments = new ArrayList<>();
    List<double[]> closedShells = new ArrayList<>();
    List<double[]> closedHoles = new ArrayList<>();
    int covering = 0;
    for (PointBuffer raw : rings) {
      double[] ring = distinct(raw);
      int n = ring.length / 2;
      if (n < 3) {
        continue;
      }
      boolean[] onEdge = new boolean[n];
      int edgeSegments = 0;
      for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        onEdge[i] = alongEdge(ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1]);
        if (onEdge[i]) {
          edgeSegments++;
        }
      }
      double area = Rings.doubleArea(ring, n);
      if (edgeSegments == 0) {
        if (area > 0) {
          closedShells.add(ring);
        } else if (area < 0) {
          closedHoles.add(ring);
        }
      } else if (edgeSegments == n) {
        // All along the edge: the tile's square (inside this ring) or nothing.
        if (Math.abs(area) > w * h) {
          covering += area > 0 ? 1 : -1;
        }
      } else {
        split(ring, onEdge, fragments);
      }
    }
    List<double[]> shells = new ArrayList<>();
    if (!fragments.isEmpty()) {
      shells.addAll(walk(fragments));
    } else if (covering > 0) {
      shells.add(new double[] {x0, y0, x1, y0, x1, y1, x0, y1});
    }
    shells.addAll(closedShells);
    return withHoles(shells, closedHoles);
  }

  /**
   * The ring with points within a hair of an edge put on it, without repeated consecutive points,
   * the closing one included.
   */
  private double[] distinct(PointBuffer r) {
    PointBuffer d = new PointBuffer(r.size());
    for (int i = 0; i < r.size(); i++) {
      double x = snap(r.x(i), x0, x1, snapX);
      double y = snap(r.y(i), y0, y1, snapY);
      snapped |= x != r.x(i) || y != r.y(i);
      d.addDistinct(x, y);
    }
    while (d.size() > 1 && d.x(0) == d.x(d.size() - 1) && d.y(0) == d.y(d.size() - 1)) {
      d.removeLast();
    }
    return d.toArray();
  }

  /** The value, or the edge it lies within {@code tolerance} of. */
  private static double snap(double v, double lo, double hi, double tolerance) {
    if (Math.abs(v - lo) <= tolerance) {
      return lo;
    }
    return Math.abs(v - hi) <= tolerance ? hi : v;
  }

  /** Whether the segment lies on one of the tile's edges. */
  private boolean alongEdge(double ax, double ay, double bx, double by) {
    return (ax == x0 && bx == x0)
        || (ax == x1 && bx == x1)
        || (ay == y0 && by == y0)
        || (ay == y1 && by == y1);
  }

  /** The ring's runs of segments off the edge, each from the edge back to the edge. */
  private void split(double[] ring, boolean[] onEdge, List<Fragment> into) {
    int n = onEdge.length;
    int start = 0;
    while (!(onEdge[(start + n - 1) % n] && !onEdge[start])) {
      start++;
    }
    int i = start;
    int visited = 0;
    while (visited < n) {
      if (onEdge[i]) {
        i = (i + 1) % n;
        visited++;
        continue;
      }
      PointBuffer run = new PointBuffer(8);
      run.add(ring[2 * i], ring[2 * i + 1]);
      while (!onEdge[i] && visited < n) {
        i = (i + 1) % n;
        visited++;
        run.add(ring[2 * i], ring[2 * i + 1]);
      }
      into.add(
          new Fragment(
              run.toArray(),
              perimeter(run.x(0), run.y(0)),
              perimeter(run.x(run.size() - 1), run.y(run.size() - 1))));
    }
  }

  /**
   * The distance along the tile's edge, anticlockwise from the south-west corner, of a point on the
   * edge (a point off it, which exact cutting does not make, is put on the nearest side).
   */
  private double perimeter(double x, double y) {
    if (y == y0) {
      return x - x0;
    }
    if (x == x1) {
      return w + (y - y0);
    }
    if (y == y1) {
      return w + h + (x1 - x);
    }
    if (x == x0) {
      return 2 * w + h + (y1 - y);
    }
    double south = y - y0;
    double east = x1 - x;
    double north = y1 - y;
    double west = x - x0;
    double min = Math.min(Math.min(south, east), Math.min(north, west));
    if (min == south) {
      return x - x0;
    }
    if (min == east) {
      return w + (y - y0);
    }
    return min == north ? w + h + (x1 - x) : 2 * w + h + (y1 - y);
  }

  /**
   * Joins the fragments into rings: from each fragment's end, anticlockwise along the edge to the
   * next fragment's start. Ends and starts alternate along the edge for a valid polygon; for any
   * input, each start is matched to one end, so the walk always closes.
   */
  private List<double[]> walk(List<Fragment> fragments) {
    int f = fragments.size();
    // Events along the edge: ends (+1) before starts (-1) at the same place.
    Integer[] order = new Integer[2 * f];
    for (int i = 0; i < 2 * f; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Double.compare(eventAt(fragments, a), eventAt(fragments, b));
          if (c != 0) {
            return c;
          }
          c = Boolean.compare(a % 2 == 1, b % 2 == 1);
          return c != 0 ? c : Integer.compare(a, b);
        });
    // Begin after the lowest running balance, so that every start finds an open end before it.
    int begin = 0;
    int balance = 0;
    int lowest = Integer.MAX_VALUE;
    for (int k = 0; k < order.length; k++) {
      balance += order[k] % 2 == 0 ? 1 : -1;
      if (balance < lowest) {
        lowest = balance;
        begin = k + 1;
      }
    }
    int[] next = new int[f];
    java.util.ArrayDeque<Integer> openEnds = new java.util.ArrayDeque<>();
    for (int k = 0; k < order.length; k++) {
      int e = order[(begin + k) % order.length];
      if (e % 2 == 0) {
        openEnds.addLast(e / 2);
      } else {
        next[openEnds.pollFirst()] = e / 2;
      }
    }
    List<double[]> rings = new ArrayList<>();
    boolean[] used = new boolean[f];
    for (int first = 0; first < f; first++) {
      if (used[first]) {
        continue;
      }
      PointBuffer ring = new PointBuffer(16);
      int cur = first;
      while (!used[cur]) {
        used[cur] = true;
        Fragment fr = fragments.get(cur);
        for (int p = 0; p < fr.points().length; p += 2) {
          ring.addDistinct(fr.points()[p], fr.points()[p + 1]);
        }
        int to = next[cur];
        corners(fr.end(), fragments.get(to).start(), ring);
        cur = to;
      }
      double[] closed = distinct(ring);
      if (closed.length >= 6 && Rings.doubleArea(closed, closed.length / 2) != 0) {
        rings.add(closed);
      }
    }
    return rings;
  }

  /** Event {@code e}: the end of fragment e/2 when e is even, else its start. */
  private static double eventAt(List<Fragment> fragments, int e) {
    Fragment fr = fragments.get(e / 2);
    return e % 2 == 0 ? fr.end() : fr.start();
  }

  /** Appends the tile's corners passed going anticlockwise from {@code from} to {@code to}. */
  private void corners(double from, double to, PointBuffer ring) {
    double[] at = {0, w, w + h, 2 * w + h};
    double[] cx = {x0, x1, x1, x0};
    double[] cy = {y0, y0, y1, y1};
    if (to >= from) {
      for (int c = 0; c < 4; c++) {
        if (at[c] > from && at[c] < to) {
          ring.addDistinct(cx[c], cy[c]);
        }
      }
      return;
    }
    for (int c = 0; c < 4; c++) {
      if (at[c] > from) {
        ring.addDistinct(cx[c], cy[c]);
      }
    }
    for (int c = 0; c < 4; c++) {
      if (at[c] < to) {
        ring.addDistinct(cx[c], cy[c]);
      }
    }
  }

  /**
   * Puts each hole in the shell that holds it; a hole in no shell lies outside the polygon. Most
   * holes fit in one shell's box and need no further test; the rest are located in an indexed
   * shell, so a country with ten thousand lakes and a hundred coastal parts stays linear.
   */
  private static List<Polygon> withHoles(List<double[]> shells, List<double[]> holes) {
    List<List<double[]>> holesOf = new ArrayList<>();
    for (int i = 0; i < shells.size(); i++) {
      holesOf.add(new ArrayList<>());
    }
    if (shells.size() == 1) {
      holesOf.get(0).addAll(holes);
    } else if (!shells.isEmpty()) {
      double[][] boxes = new double[shells.size()][];
      for (int i = 0; i < shells.size(); i++) {
        boxes[i] = box(shells.get(i));
      }
      IndexedPointInAreaLocator[] located = new IndexedPointInAreaLocator[shells.size()];
      for (double[] hole : holes) {
        int owner = owner(shells, boxes, located, hole);
        if (owner >= 0) {
          holesOf.get(owner).add(hole);
        }
      }
    }
    List<Polygon> out = new ArrayList<>(shells.size());
    for (int i = 0; i < shells.size(); i++) {
      out.add(new Polygon(shells.get(i), holesOf.get(i)));
    }
    return out;
  }

  /** The shell holding the hole, or -1: the only one whose box holds it, else by location. */
  private static int owner(
      List<double[]> shells, double[][] boxes, IndexedPointInAreaLocator[] located, double[] hole) {
    double[] hb = box(hole);
    int only = -1;
    int candidates = 0;
    for (int s = 0; s < boxes.length; s++) {
      double[] b = boxes[s];
      if (hb[0] >= b[0] && hb[2] <= b[2] && hb[1] >= b[1] && hb[3] <= b[3]) {
        only = s;
        candidates++;
      }
    }
    if (candidates <= 1) {
      return only;
    }
    // Several boxes hold it: the first of its points not on a shell's edge decides (a hole may
    // touch its shell at a point).
    for (int s = 0; s < boxes.length; s++) {
      double[] b = boxes[s];
      if (!(hb[0] >= b[0] && hb[2] <= b[2] && hb[1] >= b[1] && hb[3] <= b[3])) {
        continue;
      }
      if (located[s] == null) {
        located[s] = new IndexedPointInAreaLocator(ring(shells.get(s)));
      }
      for (int p = 0; p < hole.length / 2; p++) {
        int where = located[s].locate(new Coordinate(hole[2 * p], hole[2 * p + 1]));
        if (where != Location.BOUNDARY) {
          if (where == Location.INTERIOR) {
            return s;
          }
          break;
        }
      }
    }
    return -1;
  }

  private static double[] box(double[] ring) {
    double[] b = {ring[0], ring[1], ring[0], ring[1]};
    for (int i = 2; i < ring.length; i += 2) {
      b[0] = Math.min(b[0], ring[i]);
      b[1] = Math.min(b[1], ring[i + 1]);
      b[2] = Math.max(b[2], ring[i]);
      b[3] = Math.max(b[3], ring[i + 1]);
    }
    return b;
  }

  private static org.locationtech.jts.geom.Polygon ring(double[] xy) {
    double[] closed = Arrays.copyOf(xy, xy.length + 2);
    closed[xy.length] = xy[0];
    closed[xy.length + 1] = xy[1];
    GeometryFactory f = new GeometryFactory();
    return f.createPolygon(f.createLinearRing(new PackedCoordinateSequence.Double(closed, 2, 0)));
  }
}
