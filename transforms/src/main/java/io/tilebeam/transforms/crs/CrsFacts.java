package io.tilebeam.transforms.crs;

import javax.measure.Unit;
import org.apache.sis.measure.Units;
import org.apache.sis.referencing.CRS;
import org.opengis.geometry.Envelope;
import org.opengis.referencing.crs.CompoundCRS;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.crs.GeodeticCRS;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.crs.ProjectedCRS;
import org.opengis.referencing.crs.VerticalCRS;
import org.opengis.referencing.cs.AxisDirection;
import org.opengis.referencing.cs.CartesianCS;

/**
 * The few facts about a CRS that planning needs, answered through the {@link CrsMemo} so that a
 * process that plans a job it planned before does not open SIS's EPSG database.
 */
public final class CrsFacts {

  private CrsFacts() {}

  /**
   * What keeps the CRS from holding tiles, or null when it can: tiles need two horizontal
   * coordinates, geographic or projected. Vertical, geocentric, compound and 3-D CRSs are named.
   */
  public static String notHorizontal(CrsRef crs) {
    String why =
        CrsMemo.get(
            "not-horizontal:" + crs.definition(),
            () -> {
              CoordinateReferenceSystem c = CrsResolver.resolve(crs.definition());
              int dims = c.getCoordinateSystem().getDimension();
              if (c instanceof VerticalCRS) {
                return "a vertical CRS (heights or depths)";
              }
              if (c instanceof CompoundCRS) {
                return "a compound CRS of " + dims + " dimensions";
              }
              if (c instanceof GeodeticCRS && c.getCoordinateSystem() instanceof CartesianCS) {
                return "a geocentric CRS (3-D Cartesian coordinates from the Earth's centre)";
              }
              if (!(c instanceof GeographicCRS || c instanceof ProjectedCRS)) {
                return "neither geographic nor projected";
              }
              return dims == 2 ? "" : "a " + dims + "-D CRS";
            });
    return why.isEmpty() ? null : why;
  }

  /** Whether the CRS is geographic (longitude/latitude). */
  public static boolean geographic(CrsRef crs) {
    return flag(
        "geographic:" + crs.definition(),
        () -> CrsResolver.resolve(crs.definition()) instanceof GeographicCRS);
  }

  /** Whether the first axis of the CRS, in its authority's own order, is a northing. */
  public static boolean northFirstAsDefined(CrsRef crs) {
    return flag(
        "north-first:" + crs.definition(),
        () -> {
          AxisDirection d =
              CrsResolver.parseAsDefined(crs.definition())
                  .getCoordinateSystem()
                  .getAxis(0)
                  .getDirection();
          return d == AxisDirection.NORTH || d == AxisDirection.SOUTH;
        });
  }

  /** Whether the CRS's coordinates are angles (degrees), not lengths. */
  public static boolean angular(CrsRef crs) {
    return flag(
        "angular:" + crs.definition(),
        () -> {
          Unit<?> unit =
              CrsResolver.resolve(crs.definition()).getCoordinateSystem().getAxis(0).getUnit();
          return Units.isAngular(unit);
        });
  }

  /** Whether the CRS is geographic with longitudes in degrees: longitudes that wrap at ±180. */
  public static boolean geographicInDegrees(CrsRef crs) {
    return flag(
        "geographic-degrees:" + crs.definition(),
        () -> {
          CoordinateReferenceSystem c = CrsResolver.resolve(crs.definition());
          return c instanceof GeographicCRS
              && Units.DEGREE.equals(c.getCoordinateSystem().getAxis(0).getUnit());
        });
  }

  /**
   * The CRS's domain of validity in its own east/north coordinates, {minX, minY, maxX, maxY}, or
   * null when SIS knows none.
   */
  public static double[] domainOfValidity(CrsRef crs) {
    return CrsMemo.get(
        "domain:" + crs.definition(),
        () -> {
          Envelope e = CRS.getDomainOfValidity(CrsResolver.resolve(crs.definition()));
          if (e == null || e.getDimension() < 2) {
            return "none";
          }
          return CrsMemo.exactBox(
              e.getMinimum(0), e.getMinimum(1), e.getMaximum(0), e.getMaximum(1));
        },
        CrsFacts::box);
  }

  /** A domain as its fact writes it: "none" or a box ({@link CrsMemo#exactBox}). */
  private static double[] box(String fact) {
    return fact.equals("none") ? null : CrsMemo.fromExactBox(fact);
  }

  /** Whether going from {@code from} to {@code to} leaves coordinates as they are. */
  public static boolean identityOperation(CrsRef from, CrsRef to) {
    return flag(
        "identity-operation:" + from.definition() + "\u0000" + to.definition(),
        () -> CrsTransforms.operation(from, to).getMathTransform().isIdentity());
  }

  private static boolean flag(String key, java.util.function.BooleanSupplier compute) {
    return CrsMemo.get(key, () -> Boolean.toString(compute.getAsBoolean()), CrsMemo::flag);
  }
}
