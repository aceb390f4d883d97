package io.tilebeam.transforms.cut;

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
    int n = p.size();
    keep[first] = true;
    keep[last] = true;
    int[] stack = new int[64];
    int top = 0;
    stack[top++] = first;
    stack[top++] = last;
    while (top > 0) {
      int b = stack[--top];
      int a = stack[--top];
      double ax = p.x(a % n);
      double ay = p.y(a % n);
      double bx = p.x(b % n);
      double by = p.y(b % n);
      double worst = -1;
      int index = -1;
      for (int i = a + 1; i < b; i++) {
        double d = segmentDistance2(p.x(i % n), p.y(i % n), ax, ay, bx, by);
        if (d > worst) {
          worst = d;
          index = i;
        }
      }
      if (index >= 0 && worst > t2) {
        keep[index] = true;
        if (top + 4 > stack.length) {
          stack = java.util.Arrays.copyOf(stack, stack.length * 2);
        }
        stack[top++] = a;
        stack[top++] = index;
        stack[top++] = index;
        stack[top++] = b;
      }
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
      double d = segmentDistance2(p.x(i), p.y(i), p.x(a), p.y(a), p.x(b), p.y(b));
      if (d > worst && i != a && i != b) {
        worst = d;
        best = i;
      }
    }
    return best;
  }

  /** The squared distance from the point to the segment. */
  private static double segmentDistance2(
      double px, double py, double ax, double ay, double bx, double by) {
    double dx = bx - ax;
    double dy = by - ay;
    double len2 = dx * dx + dy * dy;
    double t = len2 == 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
    t = Math.max(0, Math.min(1, t));
    double ex = ax + t * dx - px;
    double ey = ay + t * dy - py;
    return ex * ex + ey * ey;
  }
}
