package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;

/**
 * What reaches a tile's key in the join of claimed tiles and their features: either the tile's
 * claim (its key and work) or one feature assigned to it. One type for both, so that the join is
 * one {@code GroupByKey} read in a single pass: a runner need not iterate a large group twice.
 *
 * @param key the claimed tile's work key, or null for a feature
 * @param work the claimed tile's work, or null for a feature
 * @param feature the feature, or null for a claim
 */
record TileInput(WorkKey key, TileWork work, Feature feature) implements Serializable {

  /** A claimed tile. */
  static TileInput claim(WorkKey key, TileWork work) {
    return new TileInput(key, work, null);
  }

  /** A feature assigned to a tile. */
  static TileInput of(Feature feature) {
    return new TileInput(null, null, feature);
  }
}
