package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;

/**
 * What reaches a tile's key in the join of claimed tiles and feature pieces: the tile's claim, or
 * one feature's piece of it. One type for both, so that the join is one {@code GroupByKey} read in
 * a single pass: a runner need not iterate a large group twice.
 */
sealed interface TileInput extends Serializable permits TileInput.Claim, TileInput.Piece {

  /** A claimed tile: its work key and work. */
  record Claim(WorkKey key, TileWork work) implements TileInput {}

  /** A feature's piece of the tile. */
  record Piece(FeaturePiece piece) implements TileInput {}
}
