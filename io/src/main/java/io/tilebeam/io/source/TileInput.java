package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/**
 * What reaches a tile's key in the join of claimed tiles and feature pieces: the tile's claim, a
 * batch of features' pieces of it ({@link PieceBatches}), a part of one large piece ({@link
 * PieceParts}), or word that some of its features were lost. One type for all, so that the join is
 * one {@code GroupByKey} read in a single pass: a runner need not iterate a large group twice.
 */
sealed interface TileInput extends Serializable
    permits TileInput.Claim, TileInput.Pieces, TileInput.Part, TileInput.Lost {

  /** A claimed tile: its work key and work. */
  record Claim(WorkKey key, TileWork work) implements TileInput {}

  /** Pieces of the tile, one feature's each, in the order they were cut. */
  record Pieces(List<FeaturePiece> pieces) implements TileInput {

    /** Copies the piece list. */
    public Pieces {
      pieces = List.copyOf(pieces);
    }
  }

  /**
   * One of the {@code count} parts of a piece too large to be one record: {@code bytes} is the
   * {@code index}-th slice of the piece's coding, and {@code token} the digest of the whole coding,
   * which tells the parts of one piece from those of another. {@code id} is the feature's, for
   * messages only.
   */
  record Part(String id, byte[] token, int index, int count, byte[] bytes) implements TileInput {

    /** Checks the part's place among its piece's parts. */
    public Part {
      if (count < 1 || index < 0 || index >= count) {
        throw new IllegalArgumentException(
            "part " + index + " of " + count + " of a piece of " + id + " is out of range");
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Part p
          && index == p.index
          && count == p.count
          && id.equals(p.id)
          && java.util.Arrays.equals(token, p.token)
          && java.util.Arrays.equals(bytes, p.bytes);
    }

    @Override
    public int hashCode() {
      return (java.util.Arrays.hashCode(token) * 31 + index) * 31
          + java.util.Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "Part[" + id + ", " + (index + 1) + " of " + count + ", " + bytes.length + " bytes]";
    }
  }

  /**
   * The tile may have lost features: a part of its source that could reach it cannot be read. The
   * tile fails with the reason instead of being published without them.
   */
  record Lost(String reason) implements TileInput {}
}
