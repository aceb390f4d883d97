package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/**
 * What reaches a tile's key in the join of claimed tiles and feature pieces: the tile's claim, a
 * batch of features' pieces of it ({@link PieceBatches}), or word that some of its features were
 * lost. One type for both, so that the join is one {@code GroupByKey} read in a single pass: a
 * runner need not iterate a large group twice.
 */
sealed interface TileInput extends Serializable
    permits TileInput.Claim, TileInput.Pieces, TileInput.Lost {

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
   * The tile may have lost features: a part of its source that could reach it cannot be read. The
   * tile fails with the reason instead of being published without them.
   */
  record Lost(String reason) implements TileInput {}
}
