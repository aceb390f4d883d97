package io.tilebeam.transforms.repair;

/** Plane geometry on bare coordinates, for loops that must not build JTS objects. */
public final class Planar {

  private Planar() {}

  /** The squared distance from point {@code p} to the segment from {@code a} to {@code b}. */
  public static double squaredToSegment(
      double px, double py, double ax, double ay, double bx, double by) {
    double dx = bx - ax;
    double dy = by - ay;
    double len2 = dx * dx + dy * dy;
    double t = len2 == 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
    t = Math.max(0, Math.min(1, t));
    double ex = ax + t * dx - px;
    double ey = ay + t * dy - py;
    return ex * ex + ey * ey;
  }
}
