package io.tilebeam.transforms.crs;

import javax.measure.Unit;
import org.apache.sis.measure.Units;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.cs.AxisDirection;

/**
 * The few facts about a CRS that planning needs, answered through the {@link CrsMemo} so that a
 * process that plans a job it planned before does not open SIS's EPSG database.
 */
public final class CrsFacts {

  private CrsFacts() {}

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

  /** Whether going from {@code from} to {@code to} leaves coordinates as they are. */
  public static boolean identityOperation(CrsRef from, CrsRef to) {
    return flag(
        "identity-operation:" + from.definition() + "\u0000" + to.definition(),
        () -> CrsTransforms.operation(from, to).getMathTransform().isIdentity());
  }

  private static boolean flag(String key, java.util.function.BooleanSupplier compute) {
    return Boolean.parseBoolean(CrsMemo.get(key, () -> Boolean.toString(compute.getAsBoolean())));
  }
}
