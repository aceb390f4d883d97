package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.tiling.TileMatrix;

/**
 * The columns or the rows of one tile matrix, each grown by the tile buffer: stripe {@code i} runs
 * from line {@code i} to line {@code i + 1}. Lines are computed from their index alone ({@code
 * origin ± k * span}), so two neighbouring tiles cut at bit-identical values and their pieces meet
 * without a gap.
 *
 * <p>Columns count eastwards along x; rows count southwards from the matrix's top along y (a matrix
 * whose rows count from the bottom is mirrored by {@link TileMatrix#rowFromTop}).
 */
final class Stripes {

  private final boolean rows;
  private final double origin;
  private final double span;
  private final double buffer;
  private final long count;

  private Stripes(boolean rows, double origin, double span, double buffer, long count) {
    this.rows = rows;
    this.origin = origin;
    this.span = span;
    this.buffer = buffer;
    this.count = count;
  }

  /** The columns of {@code m}, grown by {@code bufferPixels} on each side. */
  static Stripes columns(TileMatrix m, double bufferPixels) {
    return new Stripes(
        false,
        m.originX(),
        m.tileSpanX(),
        bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
        m.matrixWidth());
  }

  /** The rows of {@code m} from its top, grown by {@code bufferPixels} on each side. */
  static Stripes rows(TileMatrix m, double bufferPixels) {
    return new Stripes(
        true,
        m.originY(),
        m.tileSpanY(),
        bufferPixels * m.tileSpanY() / m.tileHeightPixels(),
        m.matrixHeight());
  }

  /** Whether these stripes cut along y (rows) rather than x (columns). */
  boolean alongY() {
    return rows;
  }

  /** The number of stripes. */
  long count() {
    return count;
  }

  private double line(long k) {
    return rows ? origin - k * span : origin + k * span;
  }

  /** The low edge of stripe {@code i} on its axis, buffer included. */
  double lo(long i) {
    return (rows ? line(i + 1) : line(i)) - buffer;
  }

  /** The high edge of stripe {@code i} on its axis, buffer included. */
  double hi(long i) {
    return (rows ? line(i) : line(i + 1)) + buffer;
  }

  /** The stripe holding {@code v} when buffers are ignored, clamped to the matrix. */
  private long guess(double v) {
    double f = Math.floor(rows ? (origin - v) / span : (v - origin) / span);
    return (long) Math.max(0, Math.min(count - 1, f));
  }

  /**
   * The first stripe whose closed interval meets {@code [vmin, vmax]}, or -1 when none does. Exact:
   * decided by the same {@link #lo}/{@link #hi} values the cutter clips at.
   */
  long first(double vmin, double vmax) {
    long i;
    if (rows) {
      // Stripes run downwards: the first one meeting the range is the one holding vmax.
      i = guess(vmax);
      while (i > 0 && lo(i - 1) <= vmax) {
        i--;
      }
      while (i < count && lo(i) > vmax) {
        i++;
      }
      return i < count && hi(i) >= vmin ? i : -1;
    }
    i = guess(vmin);
    while (i > 0 && hi(i - 1) >= vmin) {
      i--;
    }
    while (i < count && hi(i) < vmin) {
      i++;
    }
    return i < count && lo(i) <= vmax ? i : -1;
  }

  /** The last stripe whose closed interval meets {@code [vmin, vmax]}, or -1 when none does. */
  long last(double vmin, double vmax) {
    long i;
    if (rows) {
      i = guess(vmin);
      while (i < count - 1 && hi(i + 1) >= vmin) {
        i++;
      }
      while (i >= 0 && hi(i) < vmin) {
        i--;
      }
      return i >= 0 && lo(i) <= vmax ? i : -1;
    }
    i = guess(vmax);
    while (i < count - 1 && lo(i + 1) <= vmax) {
      i++;
    }
    while (i >= 0 && lo(i) > vmax) {
      i--;
    }
    return i >= 0 && hi(i) >= vmin ? i : -1;
  }
}
