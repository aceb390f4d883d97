package io.tilebeam.pipeline.job;

import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.LayerSource;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;
import java.io.Serializable;

/**
 * One layer resolved for running: what each stage of the graph needs of it. A layer is of one of
 * two kinds, decided by its source: a {@link VectorLayer} of features (read, cut, reprojected), or
 * a {@link RasterLayer} of pixels (read by windows and resampled). Both are planned, keyed, claimed
 * and published alike.
 */
public sealed interface LayerPlan extends Serializable permits VectorLayer, RasterLayer {

  /** PlanTiles: matrix set, extents, zooms. */
  LayerTiling tiling();

  /** The layer's tiles, computed once at planning: counted, looked up and planned. */
  LayerCover cover();

  /** KeyWork: the layer's work with a placeholder tile. */
  TileWork template();

  /** The source as its format resolved it. */
  LayerSource source();

  /** PublishTiles: output location and format (for an archived layer, its staging area). */
  PublishSpec publish();

  /**
   * The pack stage: the PMTiles archive the layer's tiles are packed into, or null for a layer
   * published tile by tile.
   */
  ArchiveSpec archive();

  /** The layer's name. */
  default String name() {
    return tiling().layer();
  }
}
