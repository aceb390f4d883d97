package io.tilebeam.transforms.cut;

import java.util.Arrays;

/**
 * A growable list of 2D points stored as {@code x0, y0, x1, y1, ...} in one array: the cutter makes
 * millions of points and a {@code Coordinate} object each would cost more than the cutting.
 */
public final class PointBuffer {

  private double[] xy;
  private int size;

  /** An empty buffer with room for {@code points} points. */
  public PointBuffer(int points) {
    xy = new double[Math.max(4, points * 2)];
  }

  /** A buffer holding the first {@code points} points of {@code xy}, copied. */
  public static PointBuffer of(double[] xy, int points) {
    PointBuffer b = new PointBuffer(points);
    System.arraycopy(xy, 0, b.xy, 0, points * 2);
    b.size = points;
    return b;
  }

  /** Appends a point. */
  public void add(double x, double y) {
    if (2 * size + 2 > xy.length) {
      xy = Arrays.copyOf(xy, Math.max(xy.length * 2, 8));
    }
    xy[2 * size] = x;
    xy[2 * size + 1] = y;
    size++;
  }

  /** Appends a point unless it equals the last one. */
  public void addDistinct(double x, double y) {
    if (size == 0 || x != xy[2 * size - 2] || y != xy[2 * size - 1]) {
      add(x, y);
    }
  }

  /** The number of points. */
  public int size() {
    return size;
  }

  /** The x of point {@code i}. */
  public double x(int i) {
    return xy[2 * i];
  }

  /** The y of point {@code i}. */
  public double y(int i) {
    return xy[2 * i + 1];
  }

  /** Removes every point. */
  public void clear() {
    size = 0;
  }

  /** Drops the last point. */
  public void removeLast() {
    size--;
  }

  /** The points as {@code x0, y0, x1, y1, ...}, exactly {@code 2 * size()} long. */
  public double[] toArray() {
    return Arrays.copyOf(xy, 2 * size);
  }

  /** Twice the signed area of the closed ring through the points: positive when anticlockwise. */
  public double doubleArea() {
    return Rings.doubleArea(xy, size);
  }

  /** Reverses the order of the points in place. */
  public void reverse() {
    for (int i = 0, j = size - 1; i < j; i++, j--) {
      double x = xy[2 * i];
      double y = xy[2 * i + 1];
      xy[2 * i] = xy[2 * j];
      xy[2 * i + 1] = xy[2 * j + 1];
      xy[2 * j] = x;
      xy[2 * j + 1] = y;
    }
  }
}
