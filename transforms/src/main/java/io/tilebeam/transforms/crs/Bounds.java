package io.tilebeam.transforms.crs;

import java.io.Serializable;

/**
 * An axis-aligned box in east/north axis order: {@code minX} is the west edge, {@code maxY} the
 * north edge. A box may be degenerate (a point or a line); it is never inverted.
 */
public record Bounds(double minX, double minY, double maxX, double maxY) implements Serializable {

  /** Checks that the box is finite and not inverted. */
  public Bounds {
    if (!Double.isFinite(minX)
        || !Double.isFinite(minY)
        || !Double.isFinite(maxX)
        || !Double.isFinite(maxY)) {
      throw new IllegalArgumentException(
          "bounds must be finite: " + describe(minX, minY, maxX, maxY));
    }
    if (minX > maxX || minY > maxY) {
      throw new IllegalArgumentException(
          "bounds are inverted: " + describe(minX, minY, maxX, maxY));
    }
  }

  /** This box grown by {@code dx} on the west and east and {@code dy} on the south and north. */
  public Bounds expand(double dx, double dy) {
    return new Bounds(minX - dx, minY - dy, maxX + dx, maxY + dy);
  }

  /** The part of this box inside {@code other}, or {@code null} when they do not meet. */
  public Bounds intersection(Bounds other) {
    double x0 = Math.max(minX, other.minX);
    double y0 = Math.max(minY, other.minY);
    double x1 = Math.min(maxX, other.maxX);
    double y1 = Math.min(maxY, other.maxY);
    return x0 <= x1 && y0 <= y1 ? new Bounds(x0, y0, x1, y1) : null;
  }

  /** The width of the box, {@code maxX - minX}. */
  public double width() {
    return maxX - minX;
  }

  /** The height of the box, {@code maxY - minY}. */
  public double height() {
    return maxY - minY;
  }

  @Override
  public String toString() {
    return describe(minX, minY, maxX, maxY);
  }

  private static String describe(double minX, double minY, double maxX, double maxY) {
    return "[" + minX + ", " + minY + ", " + maxX + ", " + maxY + "]";
  }
}
