package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Coordinate;

/**
 * Whether rounding a piece cut from a valid polygon onto a grid leaves it valid, found with one
 * search for segments that come near each other instead of a full check of the rounded piece.
 *
 * <p>Rounding moves each vertex by at most its distance to the grid point it goes to. Let every
 * vertex move there along a straight line, all at once: a point of a segment then never moves
 * further than the segment's farther-moving endpoint. So two segments further apart than their two
 * moves never meet on the way; two that share an endpoint (neighbours in a ring, or two rings
 * touching at a vertex: the shared point moves the same way in both) never fold onto each other if
 * each far endpoint lies further from the other segment than the two moves. When every pair of
 * segments passes, the rings deform without meeting anything new and without losing a contact, so
 * the rounded piece is nested, touches and bounds area exactly as the piece did.
 *
 * <p>The same search sees every contact of the piece, so it also finds what would make the piece
 * invalid before rounding: segments that cross or run into each other, a ring through one point
 * twice, or rings of one polygon touching so that they close a loop (a hole touching its shell at
 * two points: the interior is cut in two). Cutting can make the last two when it joins a ring's
 * parts along the tile's edge. What it does not look at is how rings lie in each other without
 * touching (a hole inside its shell, polygons outside each other), which cutting a valid polygon
 * keeps; that is why the pieces must come from a valid geometry, cut and not otherwise changed.
 *
 * <p>False means only "not known": the piece is then checked in full as any other.
 */
public final class RoundingCheck {

  private final double scale;

  /** All vertices, ring after ring. */
  private final double[] xy;

  /** Where each ring starts, plus the end. */
  private final int[] ringStart;

  /** The ring of each vertex. */
  private final int[] ringOf;

  /** The polygon of each ring. */
  private final int[] polygonOf;

  /** How far each vertex moves (its taxicab distance, never less than the straight one). */
  private final double[] move;

  /** Contacts between rings of one polygon, each once: the two rings and the point. */
  private final Set<Contact> contacts = new HashSet<>();

  private double margin;
  private boolean apart = true;

  private record Contact(int ringA, int ringB, double x, double y) {}

  private RoundingCheck(List<double[]> rings, int[] polygonOf, double scale) {
    int vertices = 0;
    for (double[] ring : rings) {
      vertices += ring.length / 2;
    }
    this.xy = new double[2 * vertices];
    this.ringStart = new int[rings.size() + 1];
    this.ringOf = new int[vertices];
    this.polygonOf = polygonOf;
    this.scale = scale;
    this.move = new double[vertices];
    int at = 0;
    for (int r = 0; r < rings.size(); r++) {
      double[] ring = rings.get(r);
      ringStart[r] = at;
      System.arraycopy(ring, 0, xy, 2 * at, ring.length);
      Arrays.fill(ringOf, at, at + ring.length / 2, r);
      at += ring.length / 2;
    }
    ringStart[rings.size()] = at;
  }

  /**
   * Whether rounding every coordinate to the nearest multiple of {@code 1/scale} (ties to even:
   * {@code Math.rint(v * scale) / scale}) leaves these polygons valid, when they were cut from a
   * valid geometry: true only when that follows from the tests above, false when it is not known.
   *
   * @param rings each polygon's shell then its holes, each ring's points {@code x, y, ...} without
   *     a closing point
   * @param polygonOf the polygon of each ring
   */
  public static boolean keepsValid(List<double[]> rings, int[] polygonOf, double scale) {
    for (double[] ring : rings) {
      if (ring.length < 6) {
        return false;
      }
    }
    return new RoundingCheck(rings, polygonOf, scale).run();
  }

  private boolean run() {
    int n = move.length;
    double largest = 0;
    double extent = 0;
    for (int v = 0; v < n; v++) {
      double x = xy[2 * v];
      double y = xy[2 * v + 1];
      double rx = Math.rint(x * scale) / scale;
      double ry = Math.rint(y * scale) / scale;
      if (!Double.isFinite(rx) || !Double.isFinite(ry)) {
        return false;
      }
      move[v] = Math.abs(rx - x) + Math.abs(ry - y);
      largest = Math.max(largest, move[v]);
      extent = Math.max(extent, Math.max(Math.abs(x), Math.abs(y)));
    }
    // What floating point may get wrong in a distance at these magnitudes: a test this close
    // fails, which only sends the piece to the full check.
    margin = 1024 * Math.ulp(extent) + 1e-9 / scale;
    double grow = largest + margin;
    double[] minX = new double[n];
    double[] minY = new double[n];
    double[] maxX = new double[n];
    double[] maxY = new double[n];
    for (int s = 0; s < n; s++) {
      int e = next(s);
      minX[s] = Math.min(xy[2 * s], xy[2 * e]) - grow;
      minY[s] = Math.min(xy[2 * s + 1], xy[2 * e + 1]) - grow;
      maxX[s] = Math.max(xy[2 * s], xy[2 * e]) + grow;
      maxY[s] = Math.max(xy[2 * s + 1], xy[2 * e + 1]) + grow;
    }
    // Every pair is looked at, even where neither segment moves: the contacts they show say
    // whether the piece was valid before rounding. Neighbours in a ring always meet; they are
    // looked at in one pass along the rings.
    if (!neighboursKeepApart()) {
      return false;
    }
    BoxPairs.visit(
        minX,
        minY,
        maxX,
        maxY,
        minX.length,
        (s, u) -> {
          if (apart && next(s) != u && next(u) != s && !apart(s, u)) {
            apart = false;
          }
        });
    return apart && noLoops();
  }

  /** Whether no segment folds onto the one after it in its ring on the way. */
  private boolean neighboursKeepApart() {
    for (int b = 0; b < move.length; b++) {
      int c = next(b);
      int a = previous(b);
      if (!foldFree(a, b, c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether segments a-b and b-c, joined at b, stay joined only there: neither far end comes onto
   * the other segment.
   */
  private boolean foldFree(int a, int b, int c) {
    double moves = Math.max(move[a], move[b]) + Math.max(move[b], move[c]) + margin;
    return squaredToSegment(a, b, c) > moves * moves && squaredToSegment(c, a, b) > moves * moves;
  }

  /** Whether segments {@code s} and {@code u}, not neighbours, stay apart all the way. */
  private boolean apart(int s, int u) {
    int se = next(s);
    int ue = next(u);
    double moves = segmentMove(s) + segmentMove(u) + margin;
    double squared = moves * moves;
    // Joined at an end: the far end of the other segment, or -1.
    int farFromStart = same(s, u) ? ue : same(s, ue) ? u : -1;
    int farFromEnd = same(se, u) ? ue : same(se, ue) ? u : -1;
    if (farFromStart >= 0 && farFromEnd >= 0) {
      return false;
    }
    if (farFromStart >= 0) {
      return touching(s, u, s)
          && squaredToSegment(se, u, ue) > squared
          && squaredToSegment(farFromStart, s, se) > squared;
    }
    if (farFromEnd >= 0) {
      return touching(s, u, se)
          && squaredToSegment(s, u, ue) > squared
          && squaredToSegment(farFromEnd, s, se) > squared;
    }
    int touch = tee(s, se, u, ue);
    if (touch != 0) {
      return touch > 0;
    }
    touch = tee(u, ue, s, se);
    if (touch != 0) {
      return touch > 0;
    }
    return squaredToSegment(s, u, ue) > squared
        && squaredToSegment(se, u, ue) > squared
        && squaredToSegment(u, s, se) > squared
        && squaredToSegment(ue, s, se) > squared
        && !crosses(s, se, u, ue);
  }

  /**
   * Whether segment s-se ends inside segment u-ue, which runs along an axis: 0 when it does not; 1
   * when it does and stays so all the way (rounding a point on a line {@code y = c} gives a point
   * on the line the rounded {@code c} gives, between the rounded ends) with nothing else coming
   * onto the other segment; -1 when not.
   */
  private int tee(int s, int se, int u, int ue) {
    boolean atStart = inside(s, u, ue);
    boolean atEnd = inside(se, u, ue);
    if (!atStart && !atEnd) {
      return 0;
    }
    if (atStart && atEnd) {
      return -1;
    }
    double moves = segmentMove(s) + segmentMove(u) + margin;
    double squared = moves * moves;
    int at = atStart ? s : se;
    int far = atStart ? se : s;
    boolean apart =
        touching(s, u, at)
            && squaredToSegment(far, u, ue) > squared
            && squaredToSegment(u, s, se) > squared
            && squaredToSegment(ue, s, se) > squared;
    return apart ? 1 : -1;
  }

  /** Whether vertex {@code v} lies strictly inside segment a-b, which runs along an axis. */
  private boolean inside(int v, int a, int b) {
    double vx = xy[2 * v];
    double vy = xy[2 * v + 1];
    double ax = xy[2 * a];
    double ay = xy[2 * a + 1];
    double bx = xy[2 * b];
    double by = xy[2 * b + 1];
    if (ay == by && vy == ay) {
      return Math.min(ax, bx) < vx && vx < Math.max(ax, bx);
    }
    return ax == bx && vx == ax && Math.min(ay, by) < vy && vy < Math.max(ay, by);
  }

  /**
   * Notes that segments {@code s} and {@code u}, not neighbours, meet at vertex {@code at}; false
   * when they are of one ring (a ring through one point twice is not valid).
   */
  private boolean touching(int s, int u, int at) {
    int a = ringOf[s];
    int b = ringOf[u];
    if (a == b) {
      return false;
    }
    if (polygonOf[a] == polygonOf[b]) {
      contacts.add(
          new Contact(Math.min(a, b), Math.max(a, b), xy[2 * at] + 0.0, xy[2 * at + 1] + 0.0));
    }
    return true;
  }

  /**
   * Whether the contacts between rings of one polygon close no loop: a hole touching its shell at
   * two points, or holes touching in a ring, cut the polygon's interior apart. Rings and contact
   * points are the nodes and each ring through a point an edge (rings meeting at one point close
   * nothing); a loop is an edge between nodes already joined.
   */
  private boolean noLoops() {
    int rings = ringStart.length - 1;
    Map<Point, Integer> points = new HashMap<>();
    Set<Long> edges = new HashSet<>();
    List<int[]> joins = new ArrayList<>();
    for (Contact c : contacts) {
      int p = points.computeIfAbsent(new Point(c.x(), c.y()), k -> rings + points.size());
      for (int r : new int[] {c.ringA(), c.ringB()}) {
        if (edges.add(((long) r << 32) | p)) {
          joins.add(new int[] {r, p});
        }
      }
    }
    int[] parent = new int[rings + points.size()];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    for (int[] j : joins) {
      int a = UnionFind.root(parent, j[0]);
      int b = UnionFind.root(parent, j[1]);
      if (a == b) {
        return false;
      }
      parent[a] = b;
    }
    return true;
  }

  private record Point(double x, double y) {}

  /** Whether two vertices lie at the same point. */
  private boolean same(int a, int b) {
    return xy[2 * a] == xy[2 * b] && xy[2 * a + 1] == xy[2 * b + 1];
  }

  /** Whether the segments a-b and c-d meet (robust orientation tests). */
  private boolean crosses(int a, int b, int c, int d) {
    Coordinate pa = point(a);
    Coordinate pb = point(b);
    Coordinate pc = point(c);
    Coordinate pd = point(d);
    return Orientation.index(pa, pb, pc) * Orientation.index(pa, pb, pd) <= 0
        && Orientation.index(pc, pd, pa) * Orientation.index(pc, pd, pb) <= 0;
  }

  private Coordinate point(int v) {
    return new Coordinate(xy[2 * v], xy[2 * v + 1]);
  }

  /**
   * The squared distance from vertex {@code p} to the segment between vertices {@code a} and {@code
   * b}.
   */
  private double squaredToSegment(int p, int a, int b) {
    return Planar.squaredToSegment(
        xy[2 * p], xy[2 * p + 1], xy[2 * a], xy[2 * a + 1], xy[2 * b], xy[2 * b + 1]);
  }

  /** The larger move of the segment's two endpoints. */
  private double segmentMove(int s) {
    return Math.max(move[s], move[next(s)]);
  }

  /** The vertex before {@code v} around its ring. */
  private int previous(int v) {
    int r = ringOf[v];
    return v > ringStart[r] ? v - 1 : ringStart[r + 1] - 1;
  }

  /** The vertex after {@code v} around its ring. */
  private int next(int v) {
    int r = ringOf[v];
    return v + 1 < ringStart[r + 1] ? v + 1 : ringStart[r];
  }
}
