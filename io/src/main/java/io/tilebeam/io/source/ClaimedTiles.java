package io.tilebeam.io.source;

import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.tiling.TileId;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderRegistry;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.transforms.Combine;

/**
 * The claimed tiles of each layer, gathered into one small value that every reader of a source gets
 * whole (a side input): the cutter then makes pieces for claimed tiles only, and skips the columns
 * without any, so a rerun that claims a handful of tiles cuts a handful. Each tile is one {@code
 * long} in a sorted array, about 8 bytes a claimed tile.
 */
final class ClaimedTiles implements Serializable {

  private static final long serialVersionUID = 1L;

  // z in the top 6 bits, then x and y in 29 bits each: every tile of WebMercatorQuad to zoom 29.
  private static final int BITS = 29;
  private static final long MASK = (1L << BITS) - 1;

  private final Map<String, long[]> packed;
  private final Map<String, Set<TileId>> wide;

  private ClaimedTiles(Map<String, long[]> packed, Map<String, Set<TileId>> wide) {
    this.packed = packed;
    this.wide = wide;
  }

  /** Whether any tile of {@code layer} is claimed. */
  boolean any(String layer) {
    return packed.containsKey(layer) || wide.containsKey(layer);
  }

  /** The claimed tiles of {@code layer}, in no particular order. */
  List<TileId> tiles(String layer) {
    List<TileId> out = new ArrayList<>(wide.getOrDefault(layer, Set.of()));
    for (long p : packed.getOrDefault(layer, new long[0])) {
      out.add(TileId.of((int) (p >>> (2 * BITS)), (p >>> BITS) & MASK, p & MASK));
    }
    return out;
  }

  /** A filter that wants {@code tile} alone. */
  static TileFilter only(TileId tile) {
    return new TileFilter() {
      @Override
      public boolean wantsColumn(int z, long x) {
        return z == tile.z() && x == tile.x();
      }

      @Override
      public boolean wants(int z, long x, long y) {
        return z == tile.z() && x == tile.x() && y == tile.y();
      }
    };
  }

  /** The claimed tiles of {@code layer} as a filter for the cutter. */
  TileFilter of(String layer) {
    long[] tiles = packed.getOrDefault(layer, new long[0]);
    Set<TileId> others = wide.getOrDefault(layer, Set.of());
    return new TileFilter() {
      @Override
      public boolean wantsColumn(int z, long x) {
        if (fits(z, x, 0)) {
          int i = Arrays.binarySearch(tiles, pack(z, x, 0));
          int at = i >= 0 ? i : -i - 1;
          if (at < tiles.length && tiles[at] <= pack(z, x, MASK)) {
            return true;
          }
        }
        return !others.isEmpty() && others.stream().anyMatch(t -> t.z() == z && t.x() == x);
      }

      @Override
      public boolean wants(int z, long x, long y) {
        return fits(z, x, y)
            ? Arrays.binarySearch(tiles, pack(z, x, y)) >= 0
            : others.contains(TileId.of(z, x, y));
      }
    };
  }

  private static boolean fits(int z, long x, long y) {
    return z < 64 && x <= MASK && y <= MASK;
  }

  private static long pack(int z, long x, long y) {
    return ((long) z << (2 * BITS)) | (x << BITS) | y;
  }

  /** Gathers the claimed tiles of every layer into one value. */
  static Combine.CombineFn<TileWork, Accumulator, ClaimedTiles> gather() {
    return new Gather();
  }

  /** Claimed tiles as they are gathered. */
  static final class Accumulator implements Serializable {
    private static final long serialVersionUID = 1L;
    final Map<String, long[]> packed = new HashMap<>();
    final Map<String, Integer> sizes = new HashMap<>();
    final Map<String, Set<TileId>> wide = new HashMap<>();

    void add(String layer, TileId t) {
      if (!fits(t.z(), t.x(), t.y())) {
        wide.computeIfAbsent(layer, k -> new HashSet<>()).add(t);
        return;
      }
      long[] a = packed.computeIfAbsent(layer, k -> new long[16]);
      int n = sizes.getOrDefault(layer, 0);
      if (n == a.length) {
        a = Arrays.copyOf(a, 2 * n);
        packed.put(layer, a);
      }
      a[n] = pack(t.z(), t.x(), t.y());
      sizes.put(layer, n + 1);
    }
  }

  private static final class Gather extends Combine.CombineFn<TileWork, Accumulator, ClaimedTiles> {

    @Override
    public Accumulator createAccumulator() {
      return new Accumulator();
    }

    @Override
    public Accumulator addInput(Accumulator acc, TileWork work) {
      acc.add(work.layer(), work.tile());
      return acc;
    }

    @Override
    public Accumulator mergeAccumulators(Iterable<Accumulator> accumulators) {
      Accumulator merged = new Accumulator();
      for (Accumulator a : accumulators) {
        a.sizes.forEach(
            (layer, n) -> {
              long[] tiles = a.packed.get(layer);
              for (int i = 0; i < n; i++) {
                long p = tiles[i];
                merged.add(
                    layer, TileId.of((int) (p >>> (2 * BITS)), (p >>> BITS) & MASK, p & MASK));
              }
            });
        a.wide.forEach((layer, set) -> set.forEach(t -> merged.add(layer, t)));
      }
      return merged;
    }

    @Override
    public ClaimedTiles extractOutput(Accumulator acc) {
      Map<String, long[]> sorted = new HashMap<>();
      acc.sizes.forEach(
          (layer, n) -> {
            long[] tiles = Arrays.copyOf(acc.packed.get(layer), n);
            Arrays.sort(tiles);
            sorted.put(layer, tiles);
          });
      return new ClaimedTiles(sorted, acc.wide);
    }

    @Override
    public Coder<Accumulator> getAccumulatorCoder(
        CoderRegistry registry, Coder<TileWork> inputCoder) {
      return SerializableCoder.of(Accumulator.class);
    }

    @Override
    public Coder<ClaimedTiles> getDefaultOutputCoder(
        CoderRegistry registry, Coder<TileWork> inputCoder) {
      return SerializableCoder.of(ClaimedTiles.class);
    }
  }
}
