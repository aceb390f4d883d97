package io.tilebeam.io.source;

/**
 * A source of features, as its format resolved it. It travels to the workers inside {@link
 * SourceSpec} and is read one of two ways: a {@link SplitSource} once, in splits, where every
 * feature is cut for every claimed tile; an {@link IndexedSource} per group of claimed tiles,
 * through its index.
 */
public sealed interface FeatureSource extends LayerSource permits SplitSource, IndexedSource {}
