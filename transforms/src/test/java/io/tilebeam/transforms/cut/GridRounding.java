package io.tilebeam.transforms.cut;

import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Geometry;

/** Rounding of test geometries onto a grid, for tests in any package. */
public final class GridRounding {

  private GridRounding() {}

  /**
   * A copy of the geometry with every coordinate rounded as the renderer rounds it: {@code rint(v *
   * scale) / scale}.
   */
  public static Geometry rounded(Geometry g, double scale) {
    Geometry r = g.copy();
    r.apply(
        new CoordinateSequenceFilter() {
          @Override
          public void filter(CoordinateSequence s, int i) {
            s.setOrdinate(i, 0, Math.rint(s.getX(i) * scale) / scale);
            s.setOrdinate(i, 1, Math.rint(s.getY(i) * scale) / scale);
          }

          @Override
          public boolean isDone() {
            return false;
          }

          @Override
          public boolean isGeometryChanged() {
            return true;
          }
        });
    return r;
  }
}
