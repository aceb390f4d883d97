package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import java.io.Serializable;
import java.util.List;

/**
 * A tile's content in its final order: features sorted by id (then geometry), in the target CRS.
 *
 * @param featuresRead source features that were considered for the tile
 * @param repaired geometries that were invalid and repaired
 * @param empty source features with an empty geometry, skipped
 * @param outsideDomain coordinates outside the source CRS's domain of validity (still transformed)
 * @param deadLetters features that could not be used, with the reason, in a fixed order
 */
public record RenderedTile(
    WorkKey key,
    TileWork work,
    List<RenderedFeature> features,
    long featuresRead,
    long repaired,
    long empty,
    long outsideDomain,
    List<FeatureFailure> deadLetters)
    implements Serializable {

  /** Copies the lists. */
  public RenderedTile {
    features = List.copyOf(features);
    deadLetters = List.copyOf(deadLetters);
  }
}
