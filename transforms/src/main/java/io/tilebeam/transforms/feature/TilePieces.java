package io.tilebeam.transforms.feature;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/** A claimed tile with its features' pieces (ReadFeatures' output, ReprojectTiles' input). */
public record TilePieces(WorkKey key, TileWork work, List<FeaturePiece> pieces)
    implements Serializable {

  /** Copies the piece list. */
  public TilePieces {
    pieces = List.copyOf(pieces);
  }
}
