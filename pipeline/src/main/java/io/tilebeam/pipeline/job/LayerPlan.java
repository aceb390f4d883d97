package io.tilebeam.pipeline.job;

import io.tilebeam.io.raster.RasterSpec;
import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.SourceSpec;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;
import java.io.Serializable;

/**
 * One layer resolved for running: what each stage of the graph needs of it.
 *
 * @param tiling PlanTiles: matrix set, extents, zooms
 * @param cover the layer's tiles, computed once at planning: counted, looked up and planned
 * @param template KeyWork: the layer's work with a placeholder tile
 * @param source ReadFeatures: where and how to read
 * @param render ReprojectTiles: CRSs, buffer, precision
 * @param publish PublishTiles: output location and format
 * @param raster RenderRasters: how a raster layer's tiles are made; null for a vector layer
 * @param archive the pack stage: the PMTiles archive the layer's tiles are packed into (and {@code
 *     publish} is then its staging area); null for a layer published tile by tile
 */
public record LayerPlan(
    LayerTiling tiling,
    LayerCover cover,
    TileWork template,
    SourceSpec source,
    RenderSpec render,
    PublishSpec publish,
    RasterSpec raster,
    ArchiveSpec archive)
    implements Serializable {

  /** The layer's name. */
  public String name() {
    return tiling.layer();
  }
}
