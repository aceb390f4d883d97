package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/**
 * A layer's source as its {@link SourceFormat} resolved it at planning: found, checked and
 * identified. It travels to the workers inside {@link SourceSpec} and says how it is read: once, in
 * {@link #splits}, where every feature is cut for every claimed tile; or, when {@link #indexed()},
 * per group of claimed tiles through its index.
 */
public interface LayerSource extends Serializable {

  /** The source's identity, which enters every work key of the layer: its content, pinned. */
  String identity();

  /** The CRS the source declares (a code or WKT), or null when it declares none. */
  String declaredCrs();

  /** The file or pinned GCS object it reads, or null for a source that is no file (a database). */
  default SourceFile file() {
    return null;
  }

  /** Every file or pinned GCS object it reads, in order (a raster mosaic has several). */
  default List<SourceFile> files() {
    return file() == null ? List.of() : List.of(file());
  }

  /**
   * Columns of the source left out of its features' properties, by name, with why (a GeoParquet
   * list or map column, INT96 timestamps); empty for most sources.
   */
  default java.util.Map<String, String> skippedColumns() {
    return java.util.Map.of();
  }

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
