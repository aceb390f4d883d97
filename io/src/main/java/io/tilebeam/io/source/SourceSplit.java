package io.tilebeam.io.source;

import java.io.Serializable;

/**
 * A part of an unindexed source that one worker reads ({@link SplitSource#splits}): the whole
 * source ({@code range} null) for a format that cannot be split without reading it, a byte range
 * for GeoJSONSeq, a range of row groups for GeoParquet.
 *
 * @param layer the layer
 * @param range the bytes to read, or null for the whole source
 */
public record SourceSplit(String layer, GeoJsonSeqSource.Range range) implements Serializable {}
