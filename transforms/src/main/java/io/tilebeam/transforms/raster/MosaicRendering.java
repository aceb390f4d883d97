package io.tilebeam.transforms.raster;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.transforms.crs.Bounds;
import java.util.ArrayList;
import java.util.List;
import org.apache.sis.storage.DataStoreException;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.operation.TransformException;

/**
 * Tiles of a mosaic: rendered from its first source, then each later source fills only the samples
 * still without data, so where sources overlap the first listed wins (unlike {@code gdalwarp a.tif
 * b.tif}, where the last one written wins). A source that cannot reach a tile costs no read.
 */
final class MosaicRendering {

  private MosaicRendering() {}

  /** The tiles over {@code bounds} from {@code sources}, in order of precedence. */
  static List<RasterTile> render(
      List<TileResampler> sources,
      List<Bounds> bounds,
      CoordinateReferenceSystem crs,
      TileSettings settings)
      throws DataStoreException, TransformException {
    List<RasterTile> tiles = new ArrayList<>(sources.get(0).render(bounds, crs, settings));
    for (TileResampler next : sources.subList(1, sources.size())) {
      List<Integer> open = new ArrayList<>();
      for (int i = 0; i < tiles.size(); i++) {
        if (tiles.get(i).anyNodata()) {
          open.add(i);
        }
      }
      if (open.isEmpty()) {
        break;
      }
      List<Bounds> wanted = new ArrayList<>();
      open.forEach(i -> wanted.add(bounds.get(i)));
      List<RasterTile> more = next.render(wanted, crs, settings);
      for (int k = 0; k < open.size(); k++) {
        tiles.get(open.get(k)).fillFrom(more.get(k));
      }
    }
    return tiles;
  }
}
