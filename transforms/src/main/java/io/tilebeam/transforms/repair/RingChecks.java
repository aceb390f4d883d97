package io.tilebeam.transforms.repair;

import org.locationtech.jts.geom.CoordinateSequence;

/** Checks on rings shared by the rounding and the repairs. */
public final class RingChecks {

  private RingChecks() {}

  /**
   * Whether a closed ring's points are not all on one line. A ring whose signed area is zero may
   * still span an area (a self-crossing figure eight): that is for the validity check to find.
   */
  public static boolean spansArea(CoordinateSequence r) {
    double x0 = r.getX(0);
    double y0 = r.getY(0);
    for (int i = 1; i + 1 < r.size(); i++) {
      if ((r.getX(i) - x0) * (r.getY(i + 1) - y0) != (r.getX(i + 1) - x0) * (r.getY(i) - y0)) {
        return true;
      }
    }
    return false;
  }
}
