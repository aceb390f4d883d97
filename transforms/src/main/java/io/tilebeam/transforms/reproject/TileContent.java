package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import java.util.List;

/**
 * A claimed tile's content, ready to be encoded and published: the features of a vector tile
 * ({@link RenderedTile}) or the pixels of a raster tile. The sinks publish either; the tile's
 * format knows which it encodes.
 */
public interface TileContent {

  /** The tile's work key. */
  WorkKey key();

  /** The tile's work. */
  TileWork work();

  /** About how many bytes of heap the content holds: what a stage that holds tiles bounds. */
  long heapBytes();

  /** Features that could not be used, passed on as dead letters; none for a raster tile. */
  default List<FeatureFailure> deadLetters() {
    return List.of();
  }
}
