package io.tilebeam.transforms.tiling;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The tiles of one layer: the union, zoom by zoom, of the tile ranges of its extents. Overlapping
 * extents yield each tile once; {@link #duplicates()} counts what the overlaps would have repeated.
 *
 * <p>The union is walked in row bands between range edges, so counting costs O(bands × ranges), not
 * O(tiles).
 */
public final class LayerCover implements Serializable {

  private static final long serialVersionUID = 1L;

  private final List<TileRange> ranges;

  /**
   * The distinct tiles, counted once when first asked: the planner asks several times. Transient,
   * so a copy counts again: field initialisers do not run when a copy is read back, so a sentinel
   * value would be lost with them.
   */
  private transient long count;

  private transient boolean counted;

  /** A cover made of these (possibly overlapping) ranges. */
  public LayerCover(List<TileRange> ranges) {
    this.ranges = List.copyOf(ranges);
  }

  /** The number of distinct tiles. */
  public long count() {
    if (!counted) {
      long[] total = {0};
      forEachBand(
          (z, firstRow, lastRow, cols) -> total[0] += (lastRow - firstRow + 1) * width(cols));
      count = total[0];
      counted = true;
    }
    return count;
  }

  /** How many tiles the ranges hold beyond the distinct ones, that is, repeated by overlaps. */
  public long duplicates() {
    long sum = 0;
    for (TileRange r : ranges) {
      sum += r.count();
    }
    return sum - count();
  }

  /** Calls {@code action} once per distinct tile, by zoom, then row, then column. */
  public void forEachTile(Consumer<TileId> action) {
    forEachBand(
        (z, firstRow, lastRow, cols) -> {
          for (long y = firstRow; y <= lastRow; y++) {
            for (long[] c : cols) {
              for (long x = c[0]; x <= c[1]; x++) {
                action.accept(new TileId(z, x, y));
              }
            }
          }
        });
  }

  /** Receives a band of rows that share one set of merged column intervals. */
  private interface BandVisitor {
    void visit(int z, long firstRow, long lastRow, List<long[]> cols);
  }

  private void forEachBand(BandVisitor visitor) {
    TreeSet<Integer> zooms = new TreeSet<>();
    ranges.forEach(r -> zooms.add(r.z()));
    for (int z : zooms) {
      List<TileRange> atZoom = ranges.stream().filter(r -> r.z() == z).toList();
      TreeSet<Long> edges = new TreeSet<>();
      for (TileRange r : atZoom) {
        edges.add(r.minY());
        edges.add(r.maxY() + 1);
      }
      Long start = edges.first();
      for (Long end = edges.higher(start); end != null; start = end, end = edges.higher(end)) {
        long row = start;
        List<long[]> cols = mergedColumns(atZoom, row);
        if (!cols.isEmpty()) {
          visitor.visit(z, row, end - 1, cols);
        }
      }
    }
  }

  private static List<long[]> mergedColumns(List<TileRange> ranges, long row) {
    List<long[]> active = new ArrayList<>();
    for (TileRange r : ranges) {
      if (r.minY() <= row && row <= r.maxY()) {
        active.add(new long[] {r.minX(), r.maxX()});
      }
    }
    active.sort(Comparator.comparingLong(a -> a[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] c : active) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && c[0] <= last[1] + 1) {
        last[1] = Math.max(last[1], c[1]);
      } else {
        merged.add(new long[] {c[0], c[1]});
      }
    }
    return merged;
  }

  private static long width(List<long[]> cols) {
    long w = 0;
    for (long[] c : cols) {
      w += c[1] - c[0] + 1;
    }
    return w;
  }

  /** Covers are equal when made of the same ranges (Beam checks coded elements by equality). */
  @Override
  public boolean equals(Object o) {
    return o instanceof LayerCover other && ranges.equals(other.ranges);
  }

  @Override
  public int hashCode() {
    return ranges.hashCode();
  }
}
