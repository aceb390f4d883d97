package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The grid finds exactly the pairs of meeting boxes a comparison of every pair finds, each once, on
 * the inputs a grid serves well and on those it must hand to finer grids or the tree.
 */
class BoxPairsTest {

  @ParameterizedTest
  @CsvSource({
    "curve, 2000",
    "points, 500",
    "knot, 3000",
    "long, 400",
    "flat, 1000",
    "equal, 200",
    "grid-aligned, 1500",
    "infinite, 50",
    "infinite, 200",
    "curve, 40",
    "equal, 64",
    "knot, 65"
  })
  void findsEveryMeetingPairOnce(String shape, int n) {
    double[][] b = boxes(shape, n, new Random(shape.hashCode()));
    List<Long> found = new ArrayList<>();
    // Arrays longer than the boxes (reused ones are), their tail boxes meeting every other: only
    // the first n count.
    double[][] padded = new double[4][];
    for (int i = 0; i < 4; i++) {
      padded[i] = java.util.Arrays.copyOf(b[i], n + 7);
      java.util.Arrays.fill(padded[i], n, n + 7, i < 2 ? -1e300 : 1e300);
    }
    BoxPairs.visit(
        padded[0], padded[1], padded[2], padded[3], n, (x, y) -> found.add(((long) x << 32) | y));
    TreeSet<Long> expected = new TreeSet<>();
    for (int x = 0; x < n; x++) {
      for (int y = x + 1; y < n; y++) {
        if (b[0][x] <= b[2][y] && b[0][y] <= b[2][x] && b[1][x] <= b[3][y] && b[1][y] <= b[3][x]) {
          expected.add(((long) x << 32) | y);
        }
      }
    }
    assertEquals(expected.size(), found.size(), "pairs visited, duplicates counted");
    assertEquals(expected, new TreeSet<>(found));
  }

  /** minX, minY, maxX, maxY of {@code n} boxes of a kind. */
  private static double[][] boxes(String shape, int n, Random r) {
    double[][] b = new double[4][n];
    double x = 0;
    double y = 0;
    for (int k = 0; k < n; k++) {
      double x0;
      double y0;
      double x1;
      double y1;
      switch (shape) {
        case "curve" -> {
          // A random walk: the segments of a wiggly ring.
          double nx = x + r.nextGaussian();
          double ny = y + r.nextGaussian();
          x0 = Math.min(x, nx);
          x1 = Math.max(x, nx);
          y0 = Math.min(y, ny);
          y1 = Math.max(y, ny);
          x = nx;
          y = ny;
        }
        case "points" -> {
          // Zero-size boxes, many on the same spots.
          x0 = x1 = r.nextInt(20);
          y0 = y1 = r.nextInt(20);
        }
        case "knot" -> {
          // Most boxes in a tiny knot, a few far away: dense cells, finer grids.
          boolean far = k % 100 == 0;
          double s = far ? 1e6 : 1e-3;
          x0 = r.nextDouble() * s;
          y0 = r.nextDouble() * s;
          x1 = x0 + r.nextDouble() * s / 50;
          y1 = y0 + r.nextDouble() * s / 50;
        }
        case "long" -> {
          // Boxes across the whole extent: too many grid entries, the tree is used.
          x0 = r.nextDouble();
          y0 = r.nextDouble() * 100;
          x1 = x0 + 100;
          y1 = y0 + r.nextDouble();
        }
        case "flat" -> {
          // No height: one row.
          x0 = r.nextDouble() * 100;
          x1 = x0 + r.nextDouble();
          y0 = y1 = 5;
        }
        case "equal" -> {
          x0 = y0 = 1;
          x1 = y1 = 2;
        }
        case "grid-aligned" -> {
          // Edges on the cell lines of a grid of about n cells.
          x0 = r.nextInt(40);
          y0 = r.nextInt(40);
          x1 = x0 + r.nextInt(2);
          y1 = y0 + r.nextInt(2);
        }
        default -> {
          x0 = k == 0 ? Double.NEGATIVE_INFINITY : r.nextDouble();
          y0 = r.nextDouble();
          x1 = k == 1 ? Double.POSITIVE_INFINITY : x0 + 0.1;
          y1 = y0 + 0.1;
        }
      }
      b[0][k] = x0;
      b[1][k] = y0;
      b[2][k] = x1;
      b[3][k] = y1;
    }
    return b;
  }
}
