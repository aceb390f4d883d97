package io.tilebeam.io.raster;

import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * What RenderRasters needs of one raster layer: its source file, the matrix set whose grid its
 * tiles take (in the set's CRS), and how pixels are made and stored.
 *
 * @param file the source GeoTIFF, a local path
 * @param tileMatrixSet the tiles' matrix set; tiles are in its CRS
 * @param size pixels a tile side
 * @param bands the source bands to take, 0-based, in output order
 * @param resampling how pixels are computed
 * @param nodataIn source samples that count as no data, or null for none
 * @param type the output sample type
 * @param nodataOut the output's no-data value
 * @param epsg the EPSG code of the set's CRS, 0 when it has none (then no GeoTIFF output)
 * @param geographic whether that CRS is geographic
 */
public record RasterSpec(
    String file,
    TileMatrixSet tileMatrixSet,
    int size,
    int[] bands,
    Resampling resampling,
    Double nodataIn,
    SampleType type,
    double nodataOut,
    int epsg,
    boolean geographic)
    implements Serializable {

  /** Copies the bands. */
  public RasterSpec {
    bands = bands.clone();
  }
}
