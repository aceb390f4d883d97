package io.tilebeam.transforms.reproject;

import io.tilebeam.codec.mvt.MvtGeometry;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.util.AffineTransformation;

/**
 * One tile's grid of {@code extent} units a side, x to the right and y down from the tile's
 * top-left corner: a vector tile's grid. A piece is finished in grid units (rounded, checked and
 * repaired there), so that its coordinates are the very integers the encoder writes and its
 * validity is the validity of what is written; it is handed on in the CRS again, each coordinate an
 * exact grid point up to the last bits of a double.
 */
final class TileGrid {

  private final AffineTransformation toGrid;
  private final AffineTransformation fromGrid;

  private TileGrid(Bounds b, int extent) {
    double sx = extent / (b.maxX() - b.minX());
    double sy = extent / (b.maxY() - b.minY());
    toGrid = AffineTransformation.translationInstance(-b.minX(), -b.maxY()).scale(sx, -sy);
    fromGrid = AffineTransformation.scaleInstance(1 / sx, -1 / sy).translate(b.minX(), b.maxY());
  }

  /** The grid of {@code tile} of {@code tms}. */
  static TileGrid of(TileMatrixSet tms, TileId tile, int extent) {
    return new TileGrid(tms.matrix(tile.z()).tileBounds(tile.x(), tile.y()), extent);
  }

  /** The geometry in grid units. */
  Geometry toGrid(Geometry g) {
    return toGrid.transform(g);
  }

  /**
   * The geometry (in the CRS, valid) snap-rounded onto the grid, in grid units: valid there, unlike
   * a rounding of each coordinate alone, which can fold thin parts over each other.
   */
  Geometry snap(Geometry g) {
    return MvtGeometry.onGrid(toGrid(g));
  }

  /** The geometry, in grid units, back in the CRS. */
  Geometry fromGrid(Geometry g) {
    return fromGrid.transform(g);
  }

  /**
   * {@link #toGrid}, moving {@code g}'s own coordinates (the same arithmetic, without the copy):
   * for a geometry no one else holds. A tile's pieces are millions of coordinates.
   */
  Geometry toGridInPlace(Geometry g) {
    return inPlace(g, toGrid);
  }

  /** {@link #fromGrid}, moving {@code g}'s own coordinates: for a geometry no one else holds. */
  Geometry fromGridInPlace(Geometry g) {
    return inPlace(g, fromGrid);
  }

  private static Geometry inPlace(Geometry g, AffineTransformation t) {
    g.apply(t);
    g.geometryChanged();
    return g;
  }
}
