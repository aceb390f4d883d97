package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;

/**
 * How a claimed tile ended, as CommitLedger records it: published ({@link PublishResult}, written
 * or found unchanged) or failed for good ({@link TileFailure}). Both the sink and the ledger see
 * this type; neither sees the other.
 */
public sealed interface TileOutcome extends Serializable permits PublishResult, TileFailure {

  /** The tile's work key. */
  WorkKey key();

  /** The tile's work. */
  TileWork work();
}
