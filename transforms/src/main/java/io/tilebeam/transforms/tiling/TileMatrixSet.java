package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tile matrix set (OGC 17-083r4): an identifier, the CRS its tiles are cut in, one {@link
 * TileMatrix} per zoom, and the latitude band that extents are clamped to before covering.
 *
 * <p>Coordinates are always east/north, whatever axis order the CRS declares.
 */
public final class TileMatrixSet implements Serializable {

  /** Half the width of the Web Mercator square, in metres (OGC 17-083r4 Annex D.1). */
  public static final double WEB_MERCATOR_HALF_WORLD = 20037508.3427892;

  /** The latitude where the Web Mercator square ends, in degrees. */
  public static final double WEB_MERCATOR_LATITUDE_LIMIT = 85.0511287798066;

  /** The deepest zoom the built-in quad-tree sets are defined to. */
  public static final int MAX_QUAD_ZOOM = 30;

  private static final TileMatrixSet WEB_MERCATOR_QUAD =
      quadTree(
          "WebMercatorQuad",
          "EPSG:3857",
          -WEB_MERCATOR_HALF_WORLD,
          WEB_MERCATOR_HALF_WORLD,
          2 * WEB_MERCATOR_HALF_WORLD,
          1,
          WEB_MERCATOR_LATITUDE_LIMIT);

  private static final TileMatrixSet WORLD_CRS84_QUAD =
      quadTree("WorldCRS84Quad", "OGC:CRS84", -180, 90, 180, 2, 90);

  private final String id;
  private final String identity;
  private final CrsRef crs;
  private final List<TileMatrix> matrices;
  private final double latitudeLimit;

  private TileMatrixSet(
      String id, String identity, CrsRef crs, List<TileMatrix> matrices, double latitudeLimit) {
    this.id = id;
    this.identity = identity;
    this.crs = crs;
    this.matrices = List.copyOf(matrices);
    this.latitudeLimit = latitudeLimit;
  }

  /**
   * Builds a custom set from its matrices, ordered by zoom starting at 0. Its {@code identity}
   * enters work keys, so it must change whenever the definition does (a digest of it does).
   */
  public static TileMatrixSet of(
      String id, String identity, CrsRef crs, List<TileMatrix> matrices, double latitudeLimit) {
    if (matrices.isEmpty()) {
      throw new IllegalArgumentException("tile matrix set " + id + " has no tile matrices");
    }
    for (int i = 0; i < matrices.size(); i++) {
      if (matrices.get(i).zoom() != i) {
        throw new IllegalArgumentException(
            "tile matrix set " + id + ": matrix " + i + " has zoom " + matrices.get(i).zoom());
      }
    }
    return new TileMatrixSet(id, identity, crs, matrices, latitudeLimit);
  }

  /** The built-in WebMercatorQuad set (EPSG:3857, one tile at zoom 0). */
  public static TileMatrixSet webMercatorQuad() {
    return WEB_MERCATOR_QUAD;
  }

  /** The built-in WorldCRS84Quad set (OGC:CRS84, two tiles at zoom 0). */
  public static TileMatrixSet worldCrs84Quad() {
    return WORLD_CRS84_QUAD;
  }

  /**
   * Returns the built-in set with this identifier, ignoring case.
   *
   * @throws IllegalArgumentException when no built-in set has that name
   */
  public static TileMatrixSet builtIn(String id) {
    switch (id.toLowerCase(Locale.ROOT)) {
      case "webmercatorquad":
        return WEB_MERCATOR_QUAD;
      case "worldcrs84quad":
        return WORLD_CRS84_QUAD;
      default:
        throw new IllegalArgumentException(
            "unknown tile matrix set '" + id + "' (built in: WebMercatorQuad, WorldCRS84Quad)");
    }
  }

  private static TileMatrixSet quadTree(
      String id,
      String crs,
      double originX,
      double originY,
      double zoomZeroSpan,
      long zoomZeroWidth,
      double latitudeLimit) {
    List<TileMatrix> matrices = new ArrayList<>();
    for (int z = 0; z <= MAX_QUAD_ZOOM; z++) {
      double span = zoomZeroSpan / (1L << z);
      matrices.add(
          new TileMatrix(
              z, originX, originY, span, span, zoomZeroWidth << z, 1L << z, 256, 256, false));
    }
    return new TileMatrixSet(id, id, new CrsRef(crs, crs), matrices, latitudeLimit);
  }

  /** The identifier, for example {@code WebMercatorQuad}. */
  public String id() {
    return id;
  }

  /**
   * The identity that enters work keys and the ledger: the id of a built-in set, the id and a
   * digest of the definition of a custom one.
   */
  public String identity() {
    return identity;
  }

  /** The CRS of the tiles, for example {@code EPSG:3857}. */
  public CrsRef crs() {
    return crs;
  }

  /** The largest zoom this set defines. */
  public int maxZoom() {
    return matrices.size() - 1;
  }

  /** The absolute latitude that geographic extents are clamped to before they are covered. */
  public double latitudeLimit() {
    return latitudeLimit;
  }

  /**
   * The matrix at zoom {@code z}.
   *
   * @throws IllegalArgumentException when the set does not define that zoom
   */
  public TileMatrix matrix(int z) {
    if (z < 0 || z > maxZoom()) {
      throw new IllegalArgumentException(
          "zoom " + z + " is outside " + id + "'s range [0, " + maxZoom() + "]");
    }
    return matrices.get(z);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TileMatrixSet other
        && identity.equals(other.identity)
        && crs.equals(other.crs)
        && matrices.equals(other.matrices);
  }

  @Override
  public int hashCode() {
    return identity.hashCode() * 31 + matrices.hashCode();
  }

  @Override
  public String toString() {
    return id;
  }
}
