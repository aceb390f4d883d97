package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/**
 * A tile's content in its final order: features sorted by id (then geometry), in the target CRS.
 *
 * @param featuresRead source features that were considered for the tile
 * @param repaired geometries that were invalid and repaired
 */
public record RenderedTile(
    WorkKey key, TileWork work, List<RenderedFeature> features, long featuresRead, long repaired)
    implements Serializable {

  /** Copies the feature list. */
  public RenderedTile {
    features = List.copyOf(features);
  }
}
