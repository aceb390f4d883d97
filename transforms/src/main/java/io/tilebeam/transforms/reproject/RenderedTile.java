package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import java.io.Serializable;
import java.util.List;

/**
 * A tile's content in its final order: features sorted by id (then geometry), in the target CRS.
 *
 * @param stats what rendering took: pieces, repairs, collapsed pieces, vertices written
 * @param deadLetters features that could not be used, with the reason, in a fixed order
 */
public record RenderedTile(
    WorkKey key,
    TileWork work,
    List<RenderedFeature> features,
    RenderStats stats,
    List<FeatureFailure> deadLetters)
    implements Serializable, TileContent {

  /** Copies the lists. */
  public RenderedTile {
    features = List.copyOf(features);
    deadLetters = List.copyOf(deadLetters);
  }

  /** A tile of these features with nothing to report about how they were made. */
  public static RenderedTile of(WorkKey key, TileWork work, List<RenderedFeature> features) {
    return new RenderedTile(key, work, features, RenderStats.NONE, List.of());
  }

  /**
   * About how many bytes of heap the features hold: their geometry and property bytes, their ids,
   * and the objects around them. What a stage that holds tiles bounds its memory by.
   */
  @Override
  public long heapBytes() {
    // Per feature: the record, its WKB array, its two strings and their arrays, and the list slot.
    long bytes = 256;
    for (RenderedFeature f : features) {
      bytes += 112 + f.wkb().length + f.id().length() + f.properties().length();
    }
    return bytes;
  }
}
