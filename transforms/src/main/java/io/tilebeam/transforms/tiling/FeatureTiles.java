package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.util.LinkedHashSet;
import java.util.Set;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.opengis.referencing.operation.TransformException;

/**
 * The tiles a source geometry may contribute to: each component's envelope, transformed into the
 * matrix set's CRS with a curvature-aware envelope transform and grown by the tile buffer, covered
 * at every zoom of the layer. Components are taken one by one so that a multi-polygon split at the
 * antimeridian does not claim the whole width of the world.
 */
public final class FeatureTiles {

  private FeatureTiles() {}

  /**
   * The tiles of zooms {@code minZoom..maxZoom} that {@code geometry} (in {@code sourceCrs}) may
   * fall in, with a buffer of {@code bufferPixels}.
   *
   * @throws TransformException when an envelope cannot be transformed
   */
  public static Set<TileId> of(
      Geometry geometry,
      CrsRef sourceCrs,
      TileMatrixSet tms,
      int minZoom,
      int maxZoom,
      double bufferPixels)
      throws TransformException {
    CrsRef tmsCrs = tms.crs();
    Set<TileId> tiles = new LinkedHashSet<>();
    for (int i = 0; i < geometry.getNumGeometries(); i++) {
      Envelope e = geometry.getGeometryN(i).getEnvelopeInternal();
      if (e.isNull()) {
        continue;
      }
      for (Bounds box :
          CrsTransforms.transform(
              new Bounds(e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY()), sourceCrs, tmsCrs)) {
        addTiles(tiles, box, tms, minZoom, maxZoom, bufferPixels);
      }
    }
    return tiles;
  }

  private static void addTiles(
      Set<TileId> tiles,
      Bounds box,
      TileMatrixSet tms,
      int minZoom,
      int maxZoom,
      double bufferPixels) {
    for (int z = minZoom; z <= maxZoom; z++) {
      TileMatrix m = tms.matrix(z);
      Bounds grown =
          box.expand(
              bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
              bufferPixels * m.tileSpanY() / m.tileHeightPixels());
      TileRange r = TileCover.cover(grown, m).orElse(null);
      if (r == null) {
        continue;
      }
      for (long y = r.minY(); y <= r.maxY(); y++) {
        for (long x = r.minX(); x <= r.maxX(); x++) {
          tiles.add(new TileId(z, x, y));
        }
      }
    }
  }
}
