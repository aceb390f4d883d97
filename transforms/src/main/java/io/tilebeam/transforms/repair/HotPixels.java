package io.tilebeam.transforms.repair;

import java.util.Arrays;

/**
 * The hot pixels of one snap rounding ({@link GridSnapper}): a dense id for each, in the order they
 * were made hot, and the test the walk along a segment asks of every pixel it passes.
 *
 * <p>Most pixels a segment passes are not hot, and hashing each one was most of the walk's time.
 * Over a box of pixels small enough (a tile's grid is a few thousand on a side) the test is one bit
 * of a bitmap, read mostly next to the bit before; only a hot pixel's id is then hashed. The bitmap
 * is kept per thread and cleared bit by bit after each use, so a tile's thousands of snap roundings
 * neither allocate nor clear megabytes each.
 */
final class HotPixels implements AutoCloseable {

  /** Bits of the largest bitmap kept: 4 MB per thread, a box about 5,800 pixels on a side. */
  private static final long MAX_BITS = 1L << 25;

  private static final ThreadLocal<long[]> BITMAP = ThreadLocal.withInitial(() -> new long[0]);

  private final PairIds ids;
  private int[] xs;
  private int[] ys;

  // The box the bitmap covers, or no bitmap (null) where the box is too large for one.
  private final int minX;
  private final int minY;
  private final int maxX;
  private final int maxY;
  private final long width;
  private final long[] bits;

  /**
   * Room for about {@code expected} hot pixels, all of them inside the box from ({@code minX},
   * {@code minY}) to ({@code maxX}, {@code maxY}), in this thread's {@link Scratch} arrays: one
   * snap rounding at a time per thread.
   */
  HotPixels(int expected, int minX, int minY, int maxX, int maxY) {
    this.ids =
        new PairIds(
            expected, Scratch.Slot.HOT_KEYS, Scratch.Slot.HOT_VALUES, Scratch.Slot.HOT_USED);
    this.xs = Scratch.ints(Scratch.Slot.HOT_X, Math.max(16, expected));
    this.ys = Scratch.ints(Scratch.Slot.HOT_Y, xs.length);
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    this.width = (long) maxX - minX + 1;
    long cells = width * ((long) maxY - minY + 1);
    this.bits = cells <= MAX_BITS ? bitmap((int) ((cells + 63) >>> 6)) : null;
  }

  /** This thread's bitmap, all clear, of at least {@code words} words. */
  private static long[] bitmap(int words) {
    long[] kept = BITMAP.get();
    if (kept.length < words) {
      kept = new long[words];
      BITMAP.set(kept);
    }
    return kept;
  }

  /**
   * Makes the pixel ({@code x}, {@code y}) hot.
   *
   * @return its id
   * @throws IllegalArgumentException when the pixel lies outside the box
   */
  int add(int x, int y) {
    if (x < minX || x > maxX || y < minY || y > maxY) {
      throw new IllegalArgumentException("hot pixel " + x + " " + y + " outside its box");
    }
    int known = ids.size();
    int id = ids.idOf(x, y);
    if (id == known) {
      if (id == xs.length) {
        xs = Arrays.copyOf(xs, id * 2);
        ys = Arrays.copyOf(ys, id * 2);
      }
      xs[id] = x;
      ys[id] = y;
      if (bits != null) {
        long cell = cell(x, y);
        bits[(int) (cell >>> 6)] |= 1L << cell;
      }
    }
    return id;
  }

  /** Whether the pixel ({@code x}, {@code y}) is hot. */
  boolean contains(int x, int y) {
    if (bits == null) {
      return ids.contains(x, y);
    }
    return x >= minX && x <= maxX && y >= minY && y <= maxY && bit(x, y);
  }

  /** The id of a hot pixel. */
  int idOf(int x, int y) {
    return ids.idOf(x, y);
  }

  /** How many pixels are hot. */
  int size() {
    return ids.size();
  }

  /** The column of hot pixel {@code id}. */
  int x(int id) {
    return xs[id];
  }

  /** The row of hot pixel {@code id}. */
  int y(int id) {
    return ys[id];
  }

  /** Clears this thread's bitmap for the next snap rounding: the words of the hot pixels only. */
  @Override
  public void close() {
    if (bits == null) {
      return;
    }
    for (int id = 0; id < ids.size(); id++) {
      bits[(int) (cell(xs[id], ys[id]) >>> 6)] = 0;
    }
  }

  private boolean bit(int x, int y) {
    long cell = cell(x, y);
    return (bits[(int) (cell >>> 6)] & (1L << cell)) != 0;
  }

  /** The pixel's bit in the bitmap: rows of the box one after another. */
  private long cell(int x, int y) {
    return (y - (long) minY) * width + (x - (long) minX);
  }
}
