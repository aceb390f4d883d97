package io.tilebeam.transforms.tiling;

import java.io.Serializable;

/**
 * One tile of a tile matrix set: zoom {@code z}, column {@code x} (from the west) and row {@code y}
 * (from the top, OGC 17-083r4 convention).
 */
public record TileId(int z, long x, long y) implements Serializable, Comparable<TileId> {

  /** Validates that the zoom and indices are non-negative. */
  public TileId {
    if (z < 0 || x < 0 || y < 0) {
      throw new IllegalArgumentException(
          "tile indices must be non-negative: " + z + "/" + x + "/" + y);
    }
  }

  /** Returns the tile {@code z/x/y}. */
  public static TileId of(int z, long x, long y) {
    return new TileId(z, x, y);
  }

  /** The tile as {@code z/x/y}, the form used in paths and logs. */
  public String path() {
    return z + "/" + x + "/" + y;
  }

  @Override
  public int compareTo(TileId other) {
    int c = Integer.compare(z, other.z);
    if (c == 0) {
      c = Long.compare(x, other.x);
    }
    return c != 0 ? c : Long.compare(y, other.y);
  }

  @Override
  public String toString() {
    return path();
  }
}
