package io.tilebeam.transforms.raster;

import io.tilebeam.codec.ByteRanges;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;
import java.util.List;

/**
 * What RenderRasters needs of one raster layer: its source files and their CRS, the matrix set
 * whose grid its tiles take (in the set's CRS), and how pixels are made and stored.
 *
 * @param sources the source GeoTIFFs' bytes, each a local file or a GCS object pinned to its
 *     generation: one, or a mosaic's in order (the first listed wins where they overlap)
 * @param sourceCrs the source's CRS: the one it declares, else the job's ({@code source.crs})
 * @param tileMatrixSet the tiles' matrix set; tiles are in its CRS
 * @param settings how pixels are made and stored
 * @param epsg the EPSG code of the set's CRS, 0 when it has none (then no GeoTIFF output)
 * @param geographic whether that CRS is geographic
 */
public record RasterSpec(
    List<? extends ByteRanges> sources,
    CrsRef sourceCrs,
    TileMatrixSet tileMatrixSet,
    TileSettings settings,
    int epsg,
    boolean geographic)
    implements Serializable {

  /** Copies the sources. */
  public RasterSpec {
    sources = List.copyOf(sources);
  }
}
