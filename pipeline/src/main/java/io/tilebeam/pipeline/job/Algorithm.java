package io.tilebeam.pipeline.job;

/**
 * The version of everything that turns inputs into bytes. Bump it with any change that alters the
 * bytes written for the same inputs (the golden key tests fail until it is bumped); every key then
 * changes and the next run rebuilds.
 */
public final class Algorithm {

  /**
   * The current algorithm version. 2: ids of features without one are digests of their WKB and
   * properties (the same in every source format), and null properties are dropped. 3: features are
   * cut into tile pieces by stripe clipping (rings joined along the tile's edge, no overlay),
   * rounded coordinate by coordinate and repaired only when invalid; {@code simplifyPixels} enters
   * every key (1/16 for Mapbox Vector Tiles, 0 otherwise). 4: points of a cut piece within a hair
   * (about a millionth of a millimetre per kilometre of tile) of the tile's buffered edge are put
   * on it, so slivers along the edge are dropped instead of folding when rounded. 5: a vertex where
   * a ring turns straight back along its own line is cleaned away however far back it goes (not
   * only A, B, A); a polygon rebuilt from its rings keeps the rings that meet nothing as they were;
   * overlapping holes stay joined in the search for holes that touch in a cycle. 6: for Mapbox
   * Vector Tiles, rings simplification leaves smaller than its tolerance are dropped when cut; the
   * component fixer makes up to four passes before the whole-geometry fixer; a feature whose grid
   * reduction JTS refuses is fixed in grid units (real coastlines' tiles at low zooms change, the
   * sample's do not). 7: for Mapbox Vector Tiles, pieces are finished on the tile's own grid
   * (rounded there, repaired only when that folds them, snap-rounded onto it after a repair) and
   * written as they are; the minimum size of a ring ({@code minSizePixels}, by default the
   * simplification's tolerance for vector tiles) enters their keys. 8: for Mapbox Vector Tiles, a
   * piece that rounding folds becomes the area its rings wind, snap-rounded onto the tile's grid in
   * one sweep (a grid union) instead of being repaired at the layer's precision first. 9: the grid
   * union's snap rounding is tilebeam's own on unit pixels (a hash set of hot pixels walked along
   * each segment) instead of JTS's, which also snapped to vertices within a tolerance. 10: the
   * source repair unions overlapping polygons without the holes that meet no other polygon and puts
   * those back after, so a mainland's lakes can come out in another order (same area). 11: for
   * Mapbox Vector Tiles, a polygonal piece of 1,024 points or more goes to the grid union without a
   * check first, so the few of them that rounding left valid are snap-rounded too. 12: for Mapbox
   * Vector Tiles, polygon sources are not made valid before they are cut: each tile gets the slices
   * of the rings as they wind, and its piece is the area where they wind at least once (shells
   * anticlockwise, holes clockwise), found by the grid union. 13: a ring is smaller than {@code
   * minSizePixels} when the area it winds is below that size squared (Planetiler's measure), not
   * only when it is smaller both across and down: slivers thinner than that are dropped too.
   */
  public static final int VERSION = 13;

  private Algorithm() {}
}
