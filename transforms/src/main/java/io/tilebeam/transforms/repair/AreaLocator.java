package io.tilebeam.transforms.repair;

import org.locationtech.jts.algorithm.PointLocation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.index.hprtree.HPRtree;

/**
 * Locates points in the area of a polygon by the even-odd rule, as a {@link RingLocator} over all
 * its rings does: by its shell first, then by the few holes whose boxes hold the point. Even-odd
 * over several rings is the parity of the rings whose area holds the point, so the shell and each
 * hole can be asked alone. Where the holes lie inside the shell (a valid polygon, or one whose
 * check found fault with nothing but the meeting of its rings), a point outside the shell is in
 * none, and the holes are asked only for a point inside it.
 *
 * <p>A {@link RingLocator} over every ring answers the same, but is built over every hole's
 * segments: for a mainland with a hundred thousand lakes, that is most of its points, walked again
 * by each check that asks whether an island lies inside it, when nearly every island lies in the
 * sea outside its shell.
 */
final class AreaLocator implements AreaPoints {

  private final Polygon polygon;
  private final RingLocator shell;
  private final boolean holesInShell;
  private HPRtree holes;

  private AreaLocator(Polygon polygon, RingLocator shell, boolean holesInShell) {
    this.polygon = polygon;
    this.shell = shell;
    this.holesInShell = holesInShell;
  }

  /** A locator for {@code polygon}, whose holes lie inside its shell, by {@code shell}. */
  static AreaLocator holesInShell(Polygon polygon, RingLocator shell) {
    return new AreaLocator(polygon, shell, true);
  }

  /**
   * A locator for any {@code polygon}, whose holes may lie anywhere (a polygon a check found
   * invalid), by {@code shell}: the area its rings enclose by the even-odd rule.
   */
  static AreaLocator evenOdd(Polygon polygon, RingLocator shell) {
    return new AreaLocator(polygon, shell, false);
  }

  /** A locator for {@code polygon}, whose holes lie inside its shell. */
  static AreaLocator of(Polygon polygon) {
    return holesInShell(polygon, RingLocator.of(polygon.getExteriorRing()));
  }

  @Override
  public int locate(Coordinate p) {
    int where = shell.locate(p);
    if (where == Location.BOUNDARY
        || polygon.getNumInteriorRing() == 0
        || (holesInShell && where != Location.INTERIOR)) {
      return where;
    }
    // The area holds the point when an odd number of its rings do (holes inside the shell: when
    // it is inside the shell and in no hole).
    int[] inside = {where == Location.INTERIOR ? 1 : 0};
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
    return inside[0] % 2 == 1 ? Location.INTERIOR : Location.EXTERIOR;
  }

  private HPRtree holes() {
    if (holes == null) {
      holes = new HPRtree();
      for (int h = 0; h < polygon.getNumInteriorRing(); h++) {
        if (!polygon.getInteriorRingN(h).isEmpty()) {
          holes.insert(polygon.getInteriorRingN(h).getEnvelopeInternal(), h);
        }
      }
      holes.build();
    }
    return holes;
  }
}
