package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/**
 * What reaches a tile's key in the join of claimed tiles and feature pieces: the tile's claim, or a
 * batch of features' pieces of it ({@link PieceBatches}). One type for both, so that the join is
 * one {@code GroupByKey} read in a single pass: a runner need not iterate a large group twice.
 */
sealed interface TileInput extends Serializable permits TileInput.Claim, TileInput.Pieces {

  /** A claimed tile: its work key and work. */
  record Claim(WorkKey key, TileWork work) implements TileInput {}

  /** Pieces of the tile, one feature's each, in the order they were cut. */
  record Pieces(List<FeaturePiece> pieces) implements TileInput {

    /** Copies the piece list. */
    public Pieces {
      pieces = List.copyOf(pieces);
    }
  }
}
