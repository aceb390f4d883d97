package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;

/**
 * A source of features read per group of claimed tiles through its index (FlatGeobuf with its
 * R-tree, a PostGIS table or query), so that a group reads only what its tiles can hold.
 */
public non-sealed interface IndexedSource extends FeatureSource {

  /** A reader, kept open for the life of one reading DoFn. */
  IndexReader open(RetryPolicy retry);
}
