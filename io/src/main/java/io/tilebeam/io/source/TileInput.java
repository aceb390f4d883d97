package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;

/**
 * What reaches the join of claimed tiles and their features: either a tile's claim (its key and
 * work) or one feature assigned to a tile. One type for both, so that the join is one {@code
 * GroupByKey} read in a single pass: a runner need not iterate a large group twice.
 *
 * @param tile the tile's reference, {@code <layer>/<z>/<x>/<y>}
 * @param key the claimed tile's work key, or null for a feature
 * @param work the claimed tile's work, or null for a feature
 * @param feature the feature, or null for a claim
 */
record TileInput(String tile, WorkKey key, TileWork work, Feature feature) implements Serializable {

  /** A claimed tile. */
  static TileInput claim(String tile, WorkKey key, TileWork work) {
    return new TileInput(tile, key, work, null);
  }

  /** A feature assigned to a tile. */
  static TileInput of(String tile, Feature feature) {
    return new TileInput(tile, null, null, feature);
  }
}
