package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.repair.Planar;

/**
 * Douglas–Peucker simplification on coordinate arrays, by a distance in the matrix set's CRS units
 * (the job gives it in tile pixels, so it shrinks with each zoom). A ring never vanishes: when the
 * tolerance would flatten it, its most distant three points are kept, so a small island stays a
 * small triangle instead of disappearing without a word.
 */
final class Simplifier {

  private Simplifier() {}

  /** The line with the vertices that deviate less than {@code tolerance} removed; ends kept. */
  static PointBuffer line(PointBuffer line, double tolerance) {
    int n = line.size();
    if (n < 3) {
      return line;
    }
    boolean[] keep = new boolean[n];
    mark(line, 0, n - 1, tolerance * tolerance, keep);
    return kept(line, keep);
  }

  /** The ring (no closing point) simplified, with at least three points when it had three. */
  static PointBuffer ring(PointBuffer ring, double tolerance) {
    int n = ring.size();
    if (n <= 3) {
      return ring;
    }
    int far = farthestFrom(ring, 0);
    boolean[] keep = new boolean[n + 1];
    double t2 = tolerance * tolerance;
    // The ring as a closed chain 0..far..n (index n is point 0 again), simplified in two halves.
    mark(ring, 0, far, t2, keep);
    mark(ring, far, n, t2, keep);
    keep[n] = false;
    PointBuffer out = kept(ring, keep);
    if (out.size() >= 3 && out.doubleArea() != 0) {
      return out;
    }
    return triangle(ring, far);
  }

  /**
   * A ring made ready to be simplified at any tolerance down to a least one, by one run of
   * Douglas–Peucker: the same points as {@link #ring} for every such tolerance.
   *
   * <p>Douglas–Peucker picks the farthest point of a span whatever the tolerance, and goes on into
   * the two halves only if that point is kept: so the spans it visits at a tolerance are the top of
   * the tree of spans it visits at a smaller one. A point is kept at tolerance {@code t} exactly
   * when its distance, and that of every point whose span held it, exceeds {@code t}: the least of
   * those distances, found in one run down to the least tolerance, tells for every tolerance at
   * once. A feature cut for many zooms is simplified from its full ring once instead of once a
   * zoom.
   */
  static final class Ladder {
    private final PointBuffer ring;
    private final int far;
    // The squared tolerance below which each point is kept (infinite for the ends of the halves),
    // or negative when it is dropped at every tolerance from the least one up.
    private final double[] keptBelow;

    /** {@code ring} (no closing point) ready for every tolerance of at least {@code least}. */
    Ladder(PointBuffer ring, double least) {
      this.ring = ring;
      int n = ring.size();
      if (n <= 3) {
        far = 0;
        keptBelow = null;
        return;
      }
      far = farthestFrom(ring, 0);
      keptBelow = new double[n + 1];
      java.util.Arrays.fill(keptBelow, -1);
      double t2 = least * least;
      levels(ring, 0, far, t2, keptBelow);
      levels(ring, far, n, t2, keptBelow);
    }

    /** The ring simplified at {@code tolerance}, as {@link Simplifier#ring} gives it. */
    PointBuffer at(double tolerance) {
      if (keptBelow == null) {
        return ring;
      }
      int n = ring.size();
      double t2 = tolerance * tolerance;
      PointBuffer out = new PointBuffer(16);
      for (int i = 0; i < n; i++) {
        if (keptBelow[i] > t2) {
          out.add(ring.x(i), ring.y(i));
        }
      }
      if (out.size() >= 3 && out.doubleArea() != 0) {
        return out;
      }
      return triangle(ring, far);
    }
  }

  /**
   * Douglas–Peucker between {@code first} and {@code last} (wrapping at the size) down to the
   * squared tolerance {@code t2}, noting in {@code keptBelow} the squared tolerance below which
   * each point it keeps is kept: the least distance on its way down from the ends.
   */
  private static void levels(PointBuffer p, int first, int last, double t2, double[] keptBelow) {
    int n = p.size();
    keptBelow[first] = Double.POSITIVE_INFINITY;
    keptBelow[last] = Double.POSITIVE_INFINITY;
    int[] stack = new int[64];
    double[] spanLevel = new double[32];
    int top = 0;
    stack[top++] = first;
    stack[top++] = last;
    spanLevel[0] = Double.POSITIVE_INFINITY;
    while (top > 0) {
      int b = stack[--top];
      int a = stack[--top];
      double level = spanLevel[top / 2];
      double ax = p.x(a % n);
      double ay = p.y(a % n);
      double bx = p.x(b % n);
      double by = p.y(b % n);
      double worst = -1;
      int index = -1;
      // j is i wrapped at the size, stepped along rather than divided for every point.
      for (int i = a + 1, j = (a + 1) % n; i < b; i++) {
        double d = Planar.squaredToSegment(p.x(j), p.y(j), ax, ay, bx, by);
        if (d > worst) {
          worst = d;
          index = i;
        }
        if (++j == n) {
          j = 0;
        }
      }
      if (index >= 0 && worst > t2) {
        double kept = Math.min(level, worst);
        keptBelow[index] = kept;
        if (top + 4 > stack.length) {
          stack = java.util.Arrays.copyOf(stack, stack.length * 2);
          spanLevel = java.util.Arrays.copyOf(spanLevel, stack.length / 2);
        }
        spanLevel[top / 2] = kept;
        stack[top++] = a;
        stack[top++] = index;
        spanLevel[top / 2] = kept;
        stack[top++] = index;
        stack[top++] = b;
      }
    }
  }

  /** A ring that simplification flattened: its most distant three points, or itself. */
  private static PointBuffer triangle(PointBuffer ring, int far) {
    PointBuffer triangle = new PointBuffer(3);
    int third = farthestFromSegment(ring, 0, far);
    int[] idx = {0, Math.min(far, third), Math.max(far, third)};
    for (int i : idx) {
      triangle.add(ring.x(i), ring.y(i));
    }
    return triangle.doubleArea() != 0 ? triangle : ring;
  }

  /** Marks the vertices to keep between {@code first} and {@code last} (wrapping at the size). */
  private static void mark(PointBuffer p, int first, int last, double t2, boolean[] keep) {
    double[] keptBelow = new double[keep.length];
    java.util.Arrays.fill(keptBelow, -1);
    levels(p, first, last, t2, keptBelow);
    for (int i = 0; i < keep.length; i++) {
      keep[i] |= keptBelow[i] >= 0;
    }
  }

  private static PointBuffer kept(PointBuffer p, boolean[] keep) {
    PointBuffer out = new PointBuffer(16);
    for (int i = 0; i < p.size(); i++) {
      if (keep[i]) {
        out.add(p.x(i), p.y(i));
      }
    }
    return out;
  }

  private static int farthestFrom(PointBuffer p, int from) {
    int best = from;
    double worst = -1;
    for (int i = 0; i < p.size(); i++) {
      double dx = p.x(i) - p.x(from);
      double dy = p.y(i) - p.y(from);
      double d = dx * dx + dy * dy;
      if (d > worst) {
        worst = d;
        best = i;
      }
    }
    return best;
  }

  private static int farthestFromSegment(PointBuffer p, int a, int b) {
    int best = a;
    double worst = -1;
    for (int i = 0; i < p.size(); i++) {
      double d = Planar.squaredToSegment(p.x(i), p.y(i), p.x(a), p.y(a), p.x(b), p.y(b));
      if (d > worst && i != a && i != b) {
        worst = d;
        best = i;
      }
    }
    return best;
  }
}
