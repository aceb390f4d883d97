package io.tilebeam.transforms.repair;

import org.locationtech.jts.algorithm.RayCrossingCounter;
import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;

/**
 * Locates points in the area that rings enclose by the even-odd rule (a polygon's shell and holes:
 * inside a hole is outside), through horizontal bands: each band lists the segments whose height
 * reaches into it, and a point is located by counting, with JTS's robust {@link
 * RayCrossingCounter}, the crossings of its band's segments with a ray to its right.
 *
 * <p>It answers as {@link IndexedPointInAreaLocator} does, and is built in O(n) by a counting sort
 * where that one sorts its intervals (a fifth of a validity check's time went into those sorts).
 */
final class RingLocator implements AreaPoints {

  /** More band entries than this many per segment: fewer, taller bands. */
  private static final int ENTRIES_PER_SEGMENT = 4;

  private final Coordinate[] from;
  private final Coordinate[] to;
  private final double y0;
  private final double height;
  private final int bands;
  private final int[] start;
  private final int[] members;

  private RingLocator(Coordinate[][] rings) {
    int n = 0;
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Coordinate[] ring : rings) {
      n += Math.max(0, ring.length - 1);
      for (Coordinate c : ring) {
        lo = Math.min(lo, c.y);
        hi = Math.max(hi, c.y);
      }
    }
    from = new Coordinate[n];
    to = new Coordinate[n];
    int s = 0;
    for (Coordinate[] ring : rings) {
      for (int i = 0; i + 1 < ring.length; i++, s++) {
        from[s] = ring[i];
        to[s] = ring[i + 1];
      }
    }
    y0 = lo;
    height = hi - lo;
    int count = height > 0 && height < Double.POSITIVE_INFINITY ? Math.max(1, n / 2) : 1;
    long entries = entries(count);
    while (count > 1 && entries > (long) ENTRIES_PER_SEGMENT * n + 64) {
      count = Math.max(1, count / 4);
      entries = entries(count);
    }
    bands = count;
    start = new int[bands + 1];
    for (int k = 0; k < n; k++) {
      for (int b = band(low(k)), last = band(high(k)); b <= last; b++) {
        start[b + 1]++;
      }
    }
    for (int b = 0; b < bands; b++) {
      start[b + 1] += start[b];
    }
    members = new int[start[bands]];
    int[] fill = new int[bands];
    for (int k = 0; k < n; k++) {
      for (int b = band(low(k)), last = band(high(k)); b <= last; b++) {
        members[start[b] + fill[b]++] = k;
      }
    }
  }

  /** A locator for a polygon's area. */
  static RingLocator of(Polygon p) {
    Coordinate[][] rings = new Coordinate[p.getNumInteriorRing() + 1][];
    rings[0] = p.getExteriorRing().getCoordinates();
    for (int h = 0; h < p.getNumInteriorRing(); h++) {
      rings[h + 1] = p.getInteriorRingN(h).getCoordinates();
    }
    return new RingLocator(rings);
  }

  /** A locator for the area one ring encloses. */
  static RingLocator of(LinearRing ring) {
    return new RingLocator(new Coordinate[][] {ring.getCoordinates()});
  }

  @Override
  public int locate(Coordinate p) {
    if (!(p.y >= y0 && p.y <= y0 + height)) {
      return Location.EXTERIOR;
    }
    RayCrossingCounter counter = new RayCrossingCounter(p);
    int b = band(p.y);
    for (int m = start[b]; m < start[b + 1]; m++) {
      int k = members[m];
      counter.countSegment(from[k], to[k]);
      if (counter.isOnSegment()) {
        return Location.BOUNDARY;
      }
    }
    return counter.getLocation();
  }

  private double low(int k) {
    return Math.min(from[k].y, to[k].y);
  }

  private double high(int k) {
    return Math.max(from[k].y, to[k].y);
  }

  private long entries(int count) {
    if (count == 1) {
      return from.length;
    }
    long e = 0;
    for (int k = 0; k < from.length; k++) {
      e += index(high(k), count) - index(low(k), count) + 1;
    }
    return e;
  }

  private int band(double y) {
    return index(y, bands);
  }

  private int index(double y, int count) {
    if (count == 1) {
      return 0;
    }
    // Multiplying by a constant keeps the order of the values: a segment's bands hold its height.
    int i = (int) ((y - y0) * (count / height));
    return Math.max(0, Math.min(count - 1, i));
  }
}
