package io.tilebeam.transforms.repair;

import java.util.List;
import org.locationtech.jts.geom.Coordinate;

/**
 * Every pair of segments of a set of rings whose boxes meet, through {@link BoxPairs}, except
 * neighbours: two consecutive segments of one ring (the last and the first of a closed ring too)
 * always share their vertex, and whether they fold back over each other is a question about three
 * points, not a pair search.
 */
final class SegmentPairs {

  /**
   * Receives each pair: segment {@code i} of ring {@code a} (from its point {@code i} to {@code i +
   * 1}) and segment {@code j} of ring {@code b}.
   */
  interface Visitor {
    void pair(int a, int i, int b, int j);
  }

  private SegmentPairs() {}

  /** Visits every pair of segments, neighbours excepted, whose boxes meet, once. */
  static void visit(List<Coordinate[]> rings, Visitor visitor) {
    int n = 0;
    for (Coordinate[] ring : rings) {
      n += Math.max(0, ring.length - 1);
    }
    int[] ringOf = new int[n];
    int[] indexOf = new int[n];
    double[] minX = new double[n];
    double[] minY = new double[n];
    double[] maxX = new double[n];
    double[] maxY = new double[n];
    int s = 0;
    for (int r = 0; r < rings.size(); r++) {
      Coordinate[] c = rings.get(r);
      for (int i = 0; i + 1 < c.length; i++, s++) {
        ringOf[s] = r;
        indexOf[s] = i;
        minX[s] = Math.min(c[i].x, c[i + 1].x);
        maxX[s] = Math.max(c[i].x, c[i + 1].x);
        minY[s] = Math.min(c[i].y, c[i + 1].y);
        maxY[s] = Math.max(c[i].y, c[i + 1].y);
      }
    }
    BoxPairs.visit(
        minX,
        minY,
        maxX,
        maxY,
        minX.length,
        (a, b) -> {
          int ra = ringOf[a];
          int i = indexOf[a];
          int j = indexOf[b];
          if (ra == ringOf[b] && neighbours(i, j, rings.get(ra))) {
            return;
          }
          visitor.pair(ra, i, ringOf[b], j);
        });
  }

  /** Whether segments {@code i < j} of the ring follow one another. */
  static boolean neighbours(int i, int j, Coordinate[] ring) {
    return j == i + 1
        || (i == 0 && j == ring.length - 2 && ring[0].equals2D(ring[ring.length - 1]));
  }
}
