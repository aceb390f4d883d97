package io.tilebeam.pipeline.job;

import io.tilebeam.io.sink.ArchiveSpec;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.source.RasterSource;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.raster.RasterSpec;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;

/**
 * A layer of pixels: its tiles read from the source by windows and resampled by RenderRasters.
 *
 * @param tiling PlanTiles: matrix set, extents, zooms
 * @param cover the layer's tiles, computed once at planning
 * @param template KeyWork: the layer's work with a placeholder tile
 * @param source the GeoTIFF or mosaic, as resolved
 * @param raster RenderRasters: the source's bytes, grid and how pixels are made
 * @param publish PublishTiles: output location and format
 * @param archive the PMTiles archive the tiles are packed into, or null
 */
public record RasterLayer(
    LayerTiling tiling,
    LayerCover cover,
    TileWork template,
    RasterSource source,
    RasterSpec raster,
    PublishSpec publish,
    ArchiveSpec archive)
    implements LayerPlan {}
