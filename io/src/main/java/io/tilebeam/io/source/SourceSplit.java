package io.tilebeam.io.source;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A part of an unindexed source that one worker reads: the whole file for a GeoJSON
 * FeatureCollection or a FlatGeobuf file without an index ({@code range} null: neither can be split
 * without reading it), a byte range for GeoJSONSeq.
 *
 * @param layer the layer
 * @param range the bytes to read, or null for the whole source
 */
public record SourceSplit(String layer, GeoJsonSeqSource.Range range) implements Serializable {

  /**
   * The splits of a layer's source.
   *
   * @throws IllegalArgumentException when the source format cannot be read
   * @throws UncheckedIOException when the file's size cannot be read
   */
  public static List<SourceSplit> of(String layer, SourceSpec spec) {
    switch (spec.format()) {
      case "geojson", "flatgeobuf":
        return List.of(new SourceSplit(layer, null));
      case "geojsonseq":
        try {
          long size = spec.file().size();
          if (size == 0) {
            return List.of();
          }
          return GeoJsonSeqSource.split(size, GeoJsonSeqSource.splitBytes(size)).stream()
              .map(r -> new SourceSplit(layer, r))
              .toList();
        } catch (IOException e) {
          throw new UncheckedIOException(
              "layer " + layer + ": cannot size " + spec.file().describe(), e);
        }
      default:
        throw new IllegalArgumentException(
            "layer "
                + layer
                + ": source format '"
                + spec.format()
                + "' is not read in one pass (geojson, geojsonseq, flatgeobuf are)");
    }
  }
}
