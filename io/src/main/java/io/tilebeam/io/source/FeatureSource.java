package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.List;

/**
 * A source of features, as its format resolved it. It travels to the workers inside {@link
 * SourceSpec} and says how it is read: once, in {@link #splits}, where every feature is cut for
 * every claimed tile; or, when {@link #indexed()}, per group of claimed tiles through its index.
 */
public non-sealed interface FeatureSource extends LayerSource {

  /** Whether groups of claimed tiles read their own features through an index. */
  boolean indexed();

  /**
   * The parts workers read of an unindexed source; by default the whole source as one split (a
   * format that cannot be split without reading it).
   *
   * @throws IOException when the source cannot be sized
   */
  default List<SourceSplit> splits(String layer) throws IOException {
    return List.of(new SourceSplit(layer, null));
  }

  /** A reader, kept open for the life of one reading DoFn. */
  FeatureReader open(RetryPolicy retry);
}
