package io.tilebeam.io.source;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * A layer's source as its {@link SourceFormat} resolved it at planning: found, checked and
 * identified. It is one of two kinds, and the kind decides the layer's graph: a {@link
 * FeatureSource} is read as features and cut into tile pieces (ReadFeatures); a {@link
 * RasterSource} is read as pixels, window by window (RenderRasters).
 */
public sealed interface LayerSource extends Serializable permits FeatureSource, RasterSource {

  /** The source's identity, which enters every work key of the layer: its content, pinned. */
  String identity();

  /** The CRS the source declares (a code or WKT), or null when it declares none. */
  String declaredCrs();

  /** The file or pinned object it reads, or null for a source that is no file (a database). */
  default SourceFile file() {
    return null;
  }

  /** Every file or pinned object it reads, in order (a raster mosaic has several). */
  default List<SourceFile> files() {
    return file() == null ? List.of() : List.of(file());
  }

  /**
   * Columns of the source left out of its features' properties, by name, with why (a GeoParquet
   * list or map column, INT96 timestamps); empty for most sources.
   */
  default Map<String, String> skippedColumns() {
    return Map.of();
  }
}
