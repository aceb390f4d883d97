package io.tilebeam.io.raster;

import io.tilebeam.io.storage.ByteRanges;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * What RenderRasters needs of one raster layer: its source file, the matrix set whose grid its
 * tiles take (in the set's CRS), and how pixels are made and stored.
 *
 * @param source the source GeoTIFF's bytes: a local file, or a GCS object pinned to its generation
 * @param tileMatrixSet the tiles' matrix set; tiles are in its CRS
 * @param settings how pixels are made and stored
 * @param epsg the EPSG code of the set's CRS, 0 when it has none (then no GeoTIFF output)
 * @param geographic whether that CRS is geographic
 */
public record RasterSpec(
    ByteRanges source,
    TileMatrixSet tileMatrixSet,
    TileSettings settings,
    int epsg,
    boolean geographic)
    implements Serializable {}
