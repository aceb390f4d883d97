package io.tilebeam.pipeline.job;

import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.FeatureSource;
import io.tilebeam.io.source.SourceSpec;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;

/**
 * A layer of features: read and cut into tile pieces by ReadFeatures, reprojected and rounded by
 * ReprojectTiles.
 *
 * @param tiling PlanTiles: matrix set, extents, zooms
 * @param cover the layer's tiles, computed once at planning
 * @param template KeyWork: the layer's work with a placeholder tile
 * @param read ReadFeatures: the source and how its features are cut
 * @param render ReprojectTiles: CRSs, precision
 * @param publish PublishTiles: output location and format
 * @param archive the PMTiles archive the tiles are packed into, or null
 */
public record VectorLayer(
    LayerTiling tiling,
    LayerCover cover,
    TileWork template,
    SourceSpec read,
    RenderSpec render,
    PublishSpec publish,
    ArchiveSpec archive)
    implements LayerPlan {

  @Override
  public FeatureSource source() {
    return read.source();
  }
}
