package io.tilebeam.transforms.repair;

import org.locationtech.jts.algorithm.PointLocation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.index.hprtree.HPRtree;

/**
 * Locates points in the area of a polygon whose holes lie inside its shell (a valid polygon, or one
 * whose check found fault with nothing but the meeting of its rings): by its shell first, and only
 * for a point inside the shell by the few holes whose boxes hold it.
 *
 * <p>A {@link RingLocator} over every ring answers the same, but is built over every hole's
 * segments: for a mainland with a hundred thousand lakes, that is most of its points, walked again
 * by each check that asks whether an island lies inside it, when nearly every island lies in the
 * sea outside its shell.
 */
final class AreaLocator implements AreaPoints {

  private final Polygon polygon;
  private final RingLocator shell;
  private HPRtree holes;

  /** A locator for {@code polygon}, whose holes lie inside its shell, by {@code shell}. */
  AreaLocator(Polygon polygon, RingLocator shell) {
    this.polygon = polygon;
    this.shell = shell;
  }

  /** A locator for {@code polygon}, whose holes lie inside its shell. */
  static AreaLocator of(Polygon polygon) {
    return new AreaLocator(polygon, RingLocator.of(polygon.getExteriorRing()));
  }

  @Override
  public int locate(Coordinate p) {
    int where = shell.locate(p);
    if (where != Location.INTERIOR || polygon.getNumInteriorRing() == 0) {
      return where;
    }
    // Inside the shell: outside the area exactly when inside a hole (holes lie in the shell, so
    // a point outside it is in none).
    int[] inside = {0};
    boolean[] onBoundary = {false};
    holes()
        .query(
            new Envelope(p),
            item -> {
              Coordinate[] ring = polygon.getInteriorRingN((Integer) item).getCoordinates();
              int at = PointLocation.locateInRing(p, ring);
              if (at == Location.BOUNDARY) {
                onBoundary[0] = true;
              } else if (at == Location.INTERIOR) {
                inside[0]++;
              }
            });
    if (onBoundary[0]) {
      return Location.BOUNDARY;
    }
    return inside[0] % 2 == 0 ? Location.INTERIOR : Location.EXTERIOR;
  }

  private HPRtree holes() {
    if (holes == null) {
      holes = new HPRtree();
      for (int h = 0; h < polygon.getNumInteriorRing(); h++) {
        holes.insert(polygon.getInteriorRingN(h).getEnvelopeInternal(), h);
      }
      holes.build();
    }
    return holes;
  }
}
