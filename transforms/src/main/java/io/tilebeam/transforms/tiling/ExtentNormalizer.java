package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.util.ArrayList;
import java.util.List;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.operation.TransformException;

/**
 * Turns a job's extent into boxes in a tile matrix set's CRS, in this order: validate, split at the
 * antimeridian (RFC 7946 §5.2), clamp latitudes to the set's band, transform each part with a
 * curvature-aware envelope transform.
 */
public final class ExtentNormalizer {

  private ExtentNormalizer() {}

  /**
   * The parts of {@code extent} in the CRS of {@code tms}, east/north axis order.
   *
   * @throws InvalidExtentException when the extent is inverted, out of range or not transformable
   */
  public static List<Bounds> normalize(Extent extent, TileMatrixSet tms) {
    List<Bounds> parts = split(extent);
    boolean geographic = isGeographic(extent.crs());
    CrsRef tmsCrs = new CrsRef(tms.crs(), tms.crs());
    List<Bounds> out = new ArrayList<>(parts.size());
    for (Bounds part : parts) {
      Bounds clamped = geographic ? clampLatitude(part, tms.latitudeLimit()) : part;
      try {
        out.add(CrsTransforms.transform(clamped, extent.crs(), tmsCrs));
      } catch (TransformException | IllegalArgumentException e) {
        throw new InvalidExtentException(
            "extent " + extent + " cannot be transformed to " + tms.crs() + ": " + e.getMessage(),
            e);
      }
    }
    return out;
  }

  /** Validates the extent and splits a geographic box that crosses the antimeridian. */
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
              + " outside [-"
              + limit
              + ", "
              + limit
              + "]");
    }
  }

  private static Bounds clampLatitude(Bounds b, double limit) {
    double south = Math.max(-limit, Math.min(limit, b.minY()));
    double north = Math.max(-limit, Math.min(limit, b.maxY()));
    return new Bounds(b.minX(), south, b.maxX(), north);
  }

  private static boolean isGeographic(CrsRef crs) {
    return CrsResolver.resolve(crs.definition()) instanceof GeographicCRS;
  }
}
