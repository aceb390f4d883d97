package io.tilebeam.transforms.repair;

import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.hprtree.HPRtree;

/**
 * Every pair of boxes that meet (closed boxes: touching counts), each pair once, found through a
 * uniform grid of about one cell per box.
 *
 * <p>The boxes of rings' segments, or of small polygons beside a large one, lie along curves: most
 * cells hold none and the rest a few, so a grid on flat arrays finds the pairs in O(n) plus the
 * pairs themselves, where a tree spends most of its time walking its nodes. A pair is visited once,
 * in the first cell (lowest column, then row) that both boxes reach: the cell of the lower-left
 * corner of their overlap. A cell holding many boxes (a dense knot in a wide, sparse extent) gets a
 * finer grid of its own, the same way; where a grid would hold too many entries (boxes spanning
 * many cells), the boxes go to a packed R-tree instead, so the cost stays O(n log n + pairs) for
 * every input.
 */
final class BoxPairs {

  /** Receives each pair of meeting boxes, lower index first. */
  interface Visitor {
    void pair(int a, int b);
  }

  /** Up to this many boxes, a sort and sweep instead of a grid. */
  private static final int FEW = 64;

  /** A cell with more boxes than this gets a finer grid of its own. */
  private static final int DENSE = 64;

  /** Grids within grids at most this deep; below, a cell's pairs are all compared. */
  private static final int MAX_DEPTH = 4;

  /** More grid entries than this many per box: the grid would not pay. */
  private static final int ENTRIES_PER_BOX = 8;

  private final double[] minX;
  private final double[] minY;
  private final double[] maxX;
  private final double[] maxY;
  // The boxes: the first n of each array.
  private final int n;
  private final Visitor visitor;

  private BoxPairs(
      double[] minX, double[] minY, double[] maxX, double[] maxY, int n, Visitor visitor) {
    this.n = n;
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    this.visitor = visitor;
  }

  /** Visits every pair of envelopes that meet, once each, lower index first. */
  static void visit(Envelope[] boxes, Visitor visitor) {
    int n = boxes.length;
    double[] minX = new double[n];
    double[] minY = new double[n];
    double[] maxX = new double[n];
    double[] maxY = new double[n];
    for (int k = 0; k < n; k++) {
      minX[k] = boxes[k].getMinX();
      minY[k] = boxes[k].getMinY();
      maxX[k] = boxes[k].getMaxX();
      maxY[k] = boxes[k].getMaxY();
    }
    visit(minX, minY, maxX, maxY, n, visitor);
  }

  /**
   * Visits every pair of boxes {@code (minX[k], minY[k], maxX[k], maxY[k])}, {@code k < n}, that
   * meet, once each, lower index first.
   */
  static void visit(
      double[] minX, double[] minY, double[] maxX, double[] maxY, int n, Visitor visitor) {
    if (n < 2) {
      return;
    }
    double x0 = Double.POSITIVE_INFINITY;
    double y0 = Double.POSITIVE_INFINITY;
    double x1 = Double.NEGATIVE_INFINITY;
    double y1 = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      x0 = Math.min(x0, minX[k]);
      y0 = Math.min(y0, minY[k]);
      x1 = Math.max(x1, maxX[k]);
      y1 = Math.max(y1, maxY[k]);
    }
    BoxPairs pairs = new BoxPairs(minX, minY, maxX, maxY, n, visitor);
    if (n <= FEW) {
      pairs.sweep(n);
      return;
    }
    int[] all = new int[n];
    for (int k = 0; k < n; k++) {
      all[k] = k;
    }
    boolean finite = x1 - x0 < Double.POSITIVE_INFINITY && y1 - y0 < Double.POSITIVE_INFINITY;
    if (!finite || !pairs.search(all, Grid.over(x0, y0, x1, y1, n), new Cell[0])) {
      pairs.byTree();
    }
  }

  /**
   * A few boxes (a small ring's segments), where building a grid costs more than it saves: sorted
   * by their west edges, each is compared with the boxes that start before it ends.
   */
  private void sweep(int n) {
    int[] order = new int[n];
    for (int k = 0; k < n; k++) {
      // Insertion sort: a ring's segments come in runs along its edges.
      int p = k;
      while (p > 0 && minX[order[p - 1]] > minX[k]) {
        order[p] = order[p - 1];
        p--;
      }
      order[p] = k;
    }
    for (int i = 0; i < n; i++) {
      int a = order[i];
      for (int j = i + 1; j < n && minX[order[j]] <= maxX[a]; j++) {
        int b = order[j];
        if (minY[a] <= maxY[b] && minY[b] <= maxY[a]) {
          report(a, b);
        }
      }
    }
  }

  /**
   * Visits the pairs among {@code ids} that meet and whose first common cell is, at every level of
   * {@code within}, that level's cell, searching {@code grid}. False, having visited nothing, when
   * the grid would hold too many entries.
   */
  private boolean search(int[] ids, Grid grid, Cell[] within) {
    long entries = 0;
    for (int k : ids) {
      entries += grid.cells(minX[k], minY[k], maxX[k], maxY[k]);
    }
    if (entries > (long) ENTRIES_PER_BOX * ids.length) {
      return false;
    }
    // Counting sort of the entries by cell.
    int cells = grid.columns * grid.rows;
    int[] start = new int[cells + 1];
    for (int k : ids) {
      int c0 = grid.column(minX[k]);
      int c1 = grid.column(maxX[k]);
      for (int row = grid.row(minY[k]), r1 = grid.row(maxY[k]); row <= r1; row++) {
        for (int col = c0; col <= c1; col++) {
          start[row * grid.columns + col + 1]++;
        }
      }
    }
    for (int c = 0; c < cells; c++) {
      start[c + 1] += start[c];
    }
    int[] fill = new int[cells];
    int[] members = new int[(int) entries];
    for (int k : ids) {
      int c0 = grid.column(minX[k]);
      int c1 = grid.column(maxX[k]);
      for (int row = grid.row(minY[k]), r1 = grid.row(maxY[k]); row <= r1; row++) {
        for (int col = c0; col <= c1; col++) {
          int cell = row * grid.columns + col;
          members[start[cell] + fill[cell]++] = k;
        }
      }
    }
    Cell[] path = java.util.Arrays.copyOf(within, within.length + 1);
    for (int cell = 0; cell < cells; cell++) {
      int from = start[cell];
      int to = start[cell + 1];
      if (to - from < 2) {
        continue;
      }
      path[within.length] = new Cell(grid, cell % grid.columns, cell / grid.columns);
      // A dense knot in a sparse extent gets a finer grid of its own.
      if (to - from <= DENSE
          || path.length > MAX_DEPTH
          || !search(
              java.util.Arrays.copyOfRange(members, from, to),
              path[within.length].grid(to - from),
              path)) {
        eachPair(members, from, to, path);
      }
    }
    return true;
  }

  /**
   * Visits the pairs among {@code ids[from..to)}, one cell's, that meet and whose first common cell
   * it is.
   */
  private void eachPair(int[] ids, int from, int to, Cell[] path) {
    for (int p = from; p < to; p++) {
      int a = ids[p];
      for (int q = p + 1; q < to; q++) {
        int b = ids[q];
        if (meet(a, b) && firstCommon(a, b, path)) {
          report(a, b);
        }
      }
    }
  }

  private boolean meet(int a, int b) {
    return minX[a] <= maxX[b] && minX[b] <= maxX[a] && minY[a] <= maxY[b] && minY[b] <= maxY[a];
  }

  private boolean firstCommon(int a, int b, Cell[] path) {
    for (Cell c : path) {
      if (!c.firstCommon(this, a, b)) {
        return false;
      }
    }
    return true;
  }

  private void report(int a, int b) {
    // Lower index first: what the visitor sees does not depend on the cell a pair is found in.
    if (a < b) {
      visitor.pair(a, b);
    } else {
      visitor.pair(b, a);
    }
  }

  /** The pairs through a packed R-tree: one query per box. */
  private void byTree() {
    HPRtree tree = new HPRtree();
    for (int k = 0; k < n; k++) {
      tree.insert(new Envelope(minX[k], maxX[k], minY[k], maxY[k]), k);
    }
    for (int a = 0; a < n; a++) {
      int self = a;
      tree.query(
          new Envelope(minX[a], maxX[a], minY[a], maxY[a]),
          item -> {
            int b = (Integer) item;
            if (b > self) {
              visitor.pair(self, b);
            }
          });
    }
  }

  /** One cell of one grid. */
  private record Cell(Grid parent, int column, int row) {

    /** Whether this is the first cell of its grid that both boxes reach. */
    boolean firstCommon(BoxPairs s, int a, int b) {
      return Math.max(parent.column(s.minX[a]), parent.column(s.minX[b])) == column
          && Math.max(parent.row(s.minY[a]), parent.row(s.minY[b])) == row;
    }

    /** A grid over this cell alone, for {@code boxes} boxes. */
    Grid grid(int boxes) {
      double w = parent.width / parent.columns;
      double h = parent.height / parent.rows;
      double x0 = parent.x0 + column * w;
      double y0 = parent.y0 + row * h;
      return Grid.over(x0, y0, x0 + w, y0 + h, boxes);
    }
  }

  /** A grid of equal cells over the extent, about one per box. */
  private record Grid(double x0, double y0, double width, double height, int columns, int rows) {

    static Grid over(double x0, double y0, double x1, double y1, int boxes) {
      double w = x1 - x0;
      double h = y1 - y0;
      double cells = Math.max(1, boxes);
      int columns;
      int rows;
      if (w <= 0 || h <= 0) {
        columns = w > 0 ? (int) Math.min(cells, 1 << 24) : 1;
        rows = h > 0 ? (int) Math.min(cells, 1 << 24) : 1;
      } else {
        double side = Math.sqrt(w * h / cells);
        columns = (int) Math.max(1, Math.min(Math.ceil(w / side), 1 << 24));
        rows = (int) Math.max(1, Math.min(Math.ceil(h / side), 1 << 24));
      }
      while ((long) columns * rows > 4L * cells + 16) {
        columns = Math.max(1, columns / 2);
        rows = Math.max(1, rows / 2);
      }
      return new Grid(x0, y0, w, h, columns, rows);
    }

    int column(double x) {
      return index(x - x0, width, columns);
    }

    int row(double y) {
      return index(y - y0, height, rows);
    }

    private static int index(double offset, double extent, int count) {
      if (count == 1) {
        return 0;
      }
      int i = (int) (offset / extent * count);
      return Math.max(0, Math.min(count - 1, i));
    }

    long cells(double minX, double minY, double maxX, double maxY) {
      return (long) (column(maxX) - column(minX) + 1) * (row(maxY) - row(minY) + 1);
    }
  }
}
