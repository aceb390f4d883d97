package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.List;

/**
 * A source of features read once, in splits, every feature cut for every claimed tile where it is
 * read (GeoJSON, GeoJSONSeq, GeoParquet, FlatGeobuf without an index).
 */
public non-sealed interface SplitSource extends FeatureSource {

  /**
   * The parts workers read; by default the whole source as one split (a format that cannot be split
   * without reading it), which its reader cuts into parts ({@link SplitReader#parts}).
   *
   * @throws IOException when the source cannot be sized
   */
  default List<SourceSplit> splits(String layer) throws IOException {
    return List.of(new SourceSplit(layer, null));
  }

  /** A reader, kept open for the life of one reading DoFn. */
  SplitReader open(RetryPolicy retry);
}
