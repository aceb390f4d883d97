package io.tilebeam.transforms.feature;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;
import java.util.List;

/** A claimed tile with the source features that may fall in it (ReadFeatures' output). */
public record TileFeatures(WorkKey key, TileWork work, List<Feature> features)
    implements Serializable {

  /** Copies the feature list. */
  public TileFeatures {
    features = List.copyOf(features);
  }
}
