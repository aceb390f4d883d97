package io.tilebeam.transforms.repair;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;

/** Locates points in an area ({@link RingLocator}, {@link AreaLocator}), and rings by them. */
interface AreaPoints {

  /** Where the point lies: {@link Location#INTERIOR}, {@link Location#BOUNDARY} or exterior. */
  int locate(Coordinate p);

  /**
   * Where the ring lies: decided by its first vertex not on the area's boundary ({@link
   * Location#BOUNDARY} when every vertex is on it).
   */
  default int locate(LinearRing ring) {
    for (Coordinate p : ring.getCoordinates()) {
      int where = locate(p);
      if (where != Location.BOUNDARY) {
        return where;
      }
    }
    return Location.BOUNDARY;
  }
}
