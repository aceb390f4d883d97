package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import java.io.Serializable;

/**
 * An extent as a job gives it: {@code [west, south, east, north]} in {@code crs}, east/north axis
 * order. In a geographic CRS, {@code west > east} means the box crosses the antimeridian (RFC 7946
 * §5.2).
 */
public record Extent(double west, double south, double east, double north, CrsRef crs)
    implements Serializable {

  @Override
  public String toString() {
    return "[" + west + ", " + south + ", " + east + ", " + north + "] in " + crs;
  }
}
