package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsMemo;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.util.ArrayList;
import java.util.List;
import org.apache.sis.referencing.CRS;
import org.opengis.metadata.extent.GeographicBoundingBox;
import org.opengis.referencing.operation.TransformException;

/**
 * Turns a job's extent into boxes in a tile matrix set's CRS, in this order: validate, split at the
 * antimeridian (RFC 7946 §5.2), clamp latitudes to the set's band and to the domain where its CRS
 * is valid, transform each part with a curvature-aware envelope transform.
 */
public final class ExtentNormalizer {

  private ExtentNormalizer() {}

  /**
   * The parts of {@code extent} in the CRS of {@code tms}, east/north axis order. Parts that lie
   * wholly outside the domain of the set's CRS are dropped.
   *
   * @throws InvalidExtentException when the extent is inverted, out of range or not transformable
   */
  public static List<Bounds> normalize(Extent extent, TileMatrixSet tms) {
    // A job's extents are normalised again by every plan of it: remembered across processes.
    String key =
        "extent:"
            + tms.crs().definition()
            + "\u0000"
            + CrsMemo.exact(tms.latitudeLimit())
            + "\u0000"
            + extent.crs().definition()
            + "\u0000"
            + CrsMemo.exactBox(extent.west(), extent.south(), extent.east(), extent.north());
    return CrsMemo.get(key, () -> formatAll(compute(extent, tms)), ExtentNormalizer::parseAll);
  }

  /** Boxes as {@code minX,minY,maxX,maxY} in exact form, separated by {@code ;}. */
  private static String formatAll(List<Bounds> boxes) {
    StringBuilder out = new StringBuilder();
    for (Bounds b : boxes) {
      out.append(out.length() == 0 ? "" : ";")
          .append(CrsMemo.exactBox(b.minX(), b.minY(), b.maxX(), b.maxY()));
    }
    return out.toString();
  }

  private static List<Bounds> parseAll(String text) {
    List<Bounds> out = new ArrayList<>();
    for (String box : text.isEmpty() ? new String[0] : text.split(";")) {
      double[] v = CrsMemo.fromExactBox(box);
      out.add(new Bounds(v[0], v[1], v[2], v[3]));
    }
    return List.copyOf(out);
  }

  private static List<Bounds> compute(Extent extent, TileMatrixSet tms) {
    List<Bounds> parts = split(extent);
    boolean geographic = isGeographic(extent.crs());
    CrsRef tmsCrs = tms.crs();
    List<Bounds> out = new ArrayList<>(parts.size());
    for (Bounds part : parts) {
      Bounds usable = geographic ? clampToDomain(part, tms) : part;
      if (usable == null) {
        continue;
      }
      try {
        out.addAll(CrsTransforms.transform(usable, extent.crs(), tmsCrs));
      } catch (TransformException | IllegalArgumentException e) {
        throw new InvalidExtentException(
            "extent " + extent + " cannot be transformed to " + tmsCrs + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /**
   * Validates the extent and splits a geographic box that crosses the antimeridian. Longitudes
   * outside [-180, 180], latitudes outside [-90, 90] and south > north are errors; latitudes beyond
   * the matrix set's band are clamped later.
   */
  static List<Bounds> split(Extent e) {
    double[] values = {e.west(), e.south(), e.east(), e.north()};
    for (double v : values) {
      if (!Double.isFinite(v)) {
        throw new InvalidExtentException("extent " + e + " has a non-finite coordinate");
      }
    }
    if (e.south() > e.north()) {
      throw new InvalidExtentException(
          "extent " + e + " has south " + e.south() + " > north " + e.north());
    }
    if (!isGeographic(e.crs())) {
      if (e.west() > e.east()) {
        throw new InvalidExtentException(
            "extent "
                + e
                + " has west "
                + e.west()
                + " > east "
                + e.east()
                + " in a projected CRS, where it cannot mean an antimeridian crossing");
      }
      return List.of(new Bounds(e.west(), e.south(), e.east(), e.north()));
    }
    checkRange(e, "west", e.west(), 180);
    checkRange(e, "east", e.east(), 180);
    // Refused like a longitude past ±180, not clamped: -95 is a typo, not the South Pole.
    checkRange(e, "south", e.south(), 90);
    checkRange(e, "north", e.north(), 90);
    if (e.west() > e.east()) {
      return List.of(
          new Bounds(e.west(), e.south(), 180, e.north()),
          new Bounds(-180, e.south(), e.east(), e.north()));
    }
    return List.of(new Bounds(e.west(), e.south(), e.east(), e.north()));
  }

  private static void checkRange(Extent e, String name, double value, double limit) {
    if (value < -limit || value > limit) {
      throw new InvalidExtentException(
          "extent "
              + e
              + " has "
              + name
              + " "
              + value
              + " outside ["
              + -limit
              + ", "
              + limit
              + "]");
    }
  }

  /**
   * The width in degrees of a geographic box that crosses the antimeridian ({@code west > east}),
   * or 0 when it does not cross: what a user who swapped west and east by mistake should be told.
   */
  public static double crossingWidth(Extent e) {
    return isGeographic(e.crs()) && e.west() > e.east() ? 360 - (e.west() - e.east()) : 0;
  }

  /**
   * The part of a longitude/latitude box the set can tile: latitudes within its band, and within
   * the area where its CRS is defined (a UTM zone, Europe for EPSG:3035). Null when nothing is
   * left.
   */
  private static Bounds clampToDomain(Bounds b, TileMatrixSet tms) {
    double limit = Math.min(90, tms.latitudeLimit());
    double west = b.minX();
    double east = b.maxX();
    double south = Math.max(-limit, b.minY());
    double north = Math.min(limit, b.maxY());
    GeographicBoundingBox domain =
        CRS.getGeographicBoundingBox(CrsResolver.resolve(tms.crs().definition()));
    if (domain != null) {
      south = Math.max(south, domain.getSouthBoundLatitude());
      north = Math.min(north, domain.getNorthBoundLatitude());
      // A domain that itself crosses the antimeridian is only used for its latitudes.
      if (domain.getWestBoundLongitude() <= domain.getEastBoundLongitude()) {
        west = Math.max(west, domain.getWestBoundLongitude());
        east = Math.min(east, domain.getEastBoundLongitude());
      }
    }
    // A box with an area that is left with none only touched the band's edge: it covers nothing.
    boolean lostHeight = b.height() > 0 && !(north > south);
    boolean lostWidth = b.width() > 0 && !(east > west);
    if (west > east || south > north || lostHeight || lostWidth) {
      return null;
    }
    return new Bounds(west, south, east, north);
  }

  private static boolean isGeographic(CrsRef crs) {
    return CrsFacts.geographic(crs);
  }
}
