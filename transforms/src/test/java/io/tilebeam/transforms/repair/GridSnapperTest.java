package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.impl.PackedCoordinateSequence;

/**
 * Snap rounding onto the integer grid: vertices and crossings become grid points, a segment is bent
 * through every hot pixel it passes, and no two edges of the result cross or run through a grid
 * point that is not one of their ends (checked exactly, on integers, over random rings).
 */
class GridSnapperTest {

  private static CoordinateSequence ring(double... xy) {
    return new PackedCoordinateSequence.Double(xy, 2, 0);
  }

  /** Each ring's snapped path as "x y" points. */
  private static List<List<String>> paths(List<CoordinateSequence> rings) {
    List<List<String>> out = new ArrayList<>();
    GridSnapper.snap(
        rings,
        (ring, pixel, x, y) -> {
          while (out.size() <= ring) {
            out.add(new ArrayList<>());
          }
          out.get(ring).add(x + " " + y);
        });
    return out;
  }

  @Test
  void verticesAreRoundedHalfUp() {
    List<List<String>> p = paths(List.of(ring(0.4, 0.5, 3.6, -0.5, 3.5, 2.49, 0.4, 0.5)));
    assertEquals(List.of("0 1", "4 0", "4 2", "0 1"), p.get(0));
  }

  @Test
  void twoCrossingSegmentsMeetAtTheCrossingsGridPoint() {
    // Two rings out along a diagonal and back cross at (5.5, 5.5), whose pixel is (6, 6).
    List<List<String>> p = paths(List.of(ring(0, 0, 11, 11, 0, 0), ring(0, 11, 11, 0, 0, 11)));
    assertEquals(List.of("0 0", "6 6", "11 11", "6 6", "0 0"), p.get(0));
    assertEquals(List.of("0 11", "6 6", "11 0", "6 6", "0 11"), p.get(1));
  }

  @Test
  void aSegmentPassingAVertexsPixelIsBentThroughIt() {
    // At x = 5 the long segment is at y = 0.5, in the pixel of the vertex (5, 1) of the other ring.
    List<List<String>> p =
        paths(List.of(ring(0, 0, 10, 1, 10, -3, 0, 0), ring(5, 1, 6, 4, 4, 4, 5, 1)));
    assertEquals(List.of("0 0", "5 1", "10 1", "10 -3", "0 0"), p.get(0));
  }

  @Test
  void longSegmentsAlongTheAxesFindTheirHotPixelsInOrderBothWays() {
    // A tile's square walked both ways (the edges of wound slices), long enough beside its few
    // hot pixels to be looked up in the sorted index. A third ring has vertices on the edges and
    // crosses them at x 1757.2 (y 0), 1000.59 (y 4096), y 3000.64 and 2988.27 (x 0): each edge
    // passes those pixels in its own direction, as the pixel by pixel walk does.
    List<List<String>> p =
        paths(
            List.of(
                ring(0, 0, 4096, 0, 4096, 4096, 0, 4096, 0, 0),
                ring(0, 0, 0, 4096, 4096, 4096, 4096, 0, 0, 0),
                ring(
                    100.2, 0.4, 3000, -0.3, 4095.6, 2000, 1000, 4096.4, -0.4, 3000.2, 100.2, 0.4)));
    List<String> forward =
        List.of(
            "0 0",
            "100 0",
            "1757 0",
            "3000 0",
            "4096 0",
            "4096 2000",
            "4096 4096",
            "1001 4096",
            "1000 4096",
            "0 4096",
            "0 3001",
            "0 3000",
            "0 2988",
            "0 0");
    assertEquals(forward, p.get(0));
    List<String> backward = new ArrayList<>(forward);
    Collections.reverse(backward);
    assertEquals(backward, p.get(1));
  }

  @Test
  void ringsSpreadTooWideForTheBitmapSnapAsTheyDoInOne() {
    // A ring far away spreads the box of hot pixels beyond what the bitmap covers (about a million
    // pixels on a side): the hash set answers instead, with the same paths for the near rings.
    Random random = new Random(7);
    for (int run = 0; run < 20; run++) {
      List<CoordinateSequence> near = randomRings(random, 4, 12, 60);
      List<CoordinateSequence> spread = new ArrayList<>(near);
      spread.add(ring(1e6, 1e6, 1e6 + 3, 1e6, 1e6, 1e6 + 3, 1e6, 1e6));
      assertEquals(paths(near), paths(spread).subList(0, near.size()), "run " + run);
    }
  }

  @Test
  void eachGridPointHasOneDenseIdAmongTheHotPixels() {
    List<CoordinateSequence> rings = randomRings(new Random(11), 6, 15, 40);
    java.util.Map<Integer, String> pointOfId = new java.util.HashMap<>();
    java.util.Map<String, Integer> idOfPoint = new java.util.HashMap<>();
    GridSnapper.snap(
        rings,
        (ring, pixel, x, y) -> {
          String point = x + " " + y;
          assertEquals(point, pointOfId.computeIfAbsent(pixel, k -> point));
          assertEquals(pixel, idOfPoint.computeIfAbsent(point, k -> pixel));
        });
    // Ids count from 0; hot pixels no path passes (a crossing's, when rounding bends both
    // segments around it) leave gaps, never repeats.
    assertTrue(pointOfId.keySet().stream().allMatch(id -> id >= 0));
    assertEquals(pointOfId.size(), idOfPoint.size());
  }

  /** {@code count} closed rings of 3 to {@code 2 + extra} random vertices in [0, size)². */
  private static List<CoordinateSequence> randomRings(
      Random random, int count, int extra, double size) {
    List<CoordinateSequence> rings = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      rings.add(randomRing(random, 3 + random.nextInt(extra), size));
    }
    return rings;
  }

  /** A closed ring of {@code n} random vertices in [0, size)². */
  private static CoordinateSequence randomRing(Random random, int n, double size) {
    double[] xy = new double[2 * n + 2];
    for (int i = 0; i < n; i++) {
      xy[2 * i] = random.nextDouble() * size;
      xy[2 * i + 1] = random.nextDouble() * size;
    }
    xy[2 * n] = xy[0];
    xy[2 * n + 1] = xy[1];
    return ring(xy);
  }

  @Test
  void coordinatesFarBeyondATileAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> paths(List.of(ring(0, 0, 1e9, 0, 0, 1, 0, 0))));
    assertEquals("coordinate beyond the grid: 1.0E9 0.0", e.getMessage());
  }

  /**
   * Random thin rings that cross each other many times, off the grid: after snapping, every pair of
   * edges meets only at a common end or runs along the same two grid points.
   */
  @Test
  void randomRingsSnapIntoAPlanarGraph() {
    Random random = new Random(36);
    for (int run = 0; run < 50; run++) {
      List<CoordinateSequence> rings = randomRings(random, 6, 20, 40);
      List<int[]> edges = new ArrayList<>();
      int[] last = {-1, 0, 0};
      GridSnapper.snap(
          rings,
          (ring, pixel, x, y) -> {
            if (last[0] == ring) {
              edges.add(new int[] {last[1], last[2], x, y});
            }
            last[0] = ring;
            last[1] = x;
            last[2] = y;
          });
      for (int a = 0; a < edges.size(); a++) {
        for (int b = a + 1; b < edges.size(); b++) {
          int[] e = edges.get(a);
          int[] f = edges.get(b);
          int run0 = run;
          assertFalse(
              badlyMet(e, f),
              () ->
                  "run "
                      + run0
                      + ": "
                      + java.util.Arrays.toString(e)
                      + " and "
                      + java.util.Arrays.toString(f));
        }
      }
    }
  }

  /** Whether two integer edges cross, or one has a point of the other inside it. */
  private static boolean badlyMet(int[] e, int[] f) {
    long d1 = orient(e, f[0], f[1]);
    long d2 = orient(e, f[2], f[3]);
    long d3 = orient(f, e[0], e[1]);
    long d4 = orient(f, e[2], e[3]);
    if (d1 * d2 < 0 && d3 * d4 < 0) {
      return true;
    }
    return strictlyInside(e, f[0], f[1], d1)
        || strictlyInside(e, f[2], f[3], d2)
        || strictlyInside(f, e[0], e[1], d3)
        || strictlyInside(f, e[2], e[3], d4);
  }

  private static long orient(int[] e, int x, int y) {
    return (long) (e[2] - e[0]) * (y - e[1]) - (long) (e[3] - e[1]) * (x - e[0]);
  }

  /** Whether (x, y), on the line of e ({@code side} 0), lies strictly between e's ends. */
  private static boolean strictlyInside(int[] e, int x, int y, long side) {
    if (side != 0 || (x == e[0] && y == e[1]) || (x == e[2] && y == e[3])) {
      return false;
    }
    return Math.min(e[0], e[2]) <= x
        && x <= Math.max(e[0], e[2])
        && Math.min(e[1], e[3]) <= y
        && y <= Math.max(e[1], e[3]);
  }
}
