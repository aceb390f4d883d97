package io.tilebeam.transforms.raster;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.Serializable;

/**
 * A claimed raster tile, rendered: its pixels and where they lie, on the way to its sink.
 *
 * @param key the tile's work key
 * @param work the tile's work
 * @param pixels the pixels
 * @param where the tile's CRS (EPSG code) and georeferencing
 */
public record RasterContent(
    WorkKey key, TileWork work, RasterTile pixels, GeoTiffEncoder.Georeference where)
    implements TileContent, Serializable {

  @Override
  public long heapBytes() {
    return 512 + 8L * pixels.samples().length;
  }
}
