package io.tilebeam.transforms.tiling;

import java.io.Serializable;

/**
 * An inclusive rectangle of tiles at one zoom: columns {@code minX..maxX}, rows {@code minY..maxY}.
 */
public record TileRange(int z, long minX, long minY, long maxX, long maxY) implements Serializable {

  /** Checks that the range is not inverted. */
  public TileRange {
    if (minX > maxX || minY > maxY) {
      throw new IllegalArgumentException("inverted tile range at zoom " + z);
    }
  }

  /** The number of tiles in the range. */
  public long count() {
    return (maxX - minX + 1) * (maxY - minY + 1);
  }

  /** Whether the tile lies in this range. */
  public boolean contains(TileId tile) {
    return tile.z() == z
        && tile.x() >= minX
        && tile.x() <= maxX
        && tile.y() >= minY
        && tile.y() <= maxY;
  }
}
