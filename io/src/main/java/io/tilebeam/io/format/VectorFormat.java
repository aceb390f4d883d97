package io.tilebeam.io.format;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;

/** An output format of features: a vector layer's tiles (GeoJSON, FlatGeobuf, MVT, GeoParquet). */
public non-sealed interface VectorFormat extends TileFormat {

  /**
   * The simplification, in pixels, of a layer written in this format whose job sets none: 0 keeps
   * every vertex (data formats do unless the job asks).
   */
  default double defaultSimplifyPixels() {
    return 0;
  }

  /**
   * Whether rings smaller than the simplification's tolerance are dropped when cut unless the job
   * sets {@code minSizePixels}: true for a format that cannot draw them (a vector tile's grid
   * unit), false where a small island stays a triangle.
   */
  default boolean dropsSpecks() {
    return false;
  }

  /**
   * The units a side of the grid this format writes each tile's coordinates on, or 0 for a format
   * that writes coordinates in the target CRS: the renderer then finishes pieces on that grid.
   */
  default int gridExtent() {
    return 0;
  }

  /** True: a vector tile without features is nothing to serve. */
  @Override
  default boolean emptyWithoutFeatures() {
    return true;
  }

  /**
   * The tile's bytes. The same tile always gives the same bytes.
   *
   * @throws IOException when the features cannot be encoded
   */
  Encoded encode(RenderedTile tile, CrsRef crs) throws IOException;
}
