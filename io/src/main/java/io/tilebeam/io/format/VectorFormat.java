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
   * Whether rings that simplification leaves smaller than its tolerance are dropped when cut: true
   * for a format that cannot draw them (a vector tile's grid unit), false where a small island
   * stays a triangle.
   */
  default boolean dropsSpecks() {
    return false;
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
