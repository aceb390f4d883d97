package io.tilebeam.transforms.repair;

import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * Working arrays that one thread's grid unions reuse from piece to piece, instead of making them
 * new for each: a tile of a low zoom unites pieces of hundreds of thousands of points, and the
 * arrays of one union (tens of megabytes) lived just long enough for the young collections to copy
 * them, often more than once, and for the old generation to fill with them.
 *
 * <p>Each array has a slot of its own ({@link Slot}): arrays in use at the same time never share
 * one. An array handed out may be longer than asked for and holds what its last user left, unless
 * the method says otherwise; callers use the length they asked for, never {@code length}. Arrays
 * longer than {@link #MAX_KEPT} are made for the one use and not kept, so that a thread holds at
 * most a few hundred megabytes after the largest piece it met.
 */
final class Scratch {

  /** The arrays, one per use. */
  enum Slot {
    UNION_ID_OF_PIXEL,
    UNION_X,
    UNION_Y,
    UNION_FROM,
    UNION_TO,
    UNION_DELTA,
    UNION_KEPT,
    EDGE_KEYS,
    EDGE_VALUES,
    EDGE_USED,
    HOT_KEYS,
    HOT_VALUES,
    HOT_USED,
    HOT_X,
    HOT_Y,
    SEGMENT_X0,
    SEGMENT_Y0,
    SEGMENT_X1,
    SEGMENT_Y1,
    SEGMENT_START,
    SEGMENT_END,
    BOX_MIN_X,
    BOX_MIN_Y,
    BOX_MAX_X,
    BOX_MAX_Y,
    HALF_FROM,
    HALF_TO,
    HALF_DELTA,
    HALF_START,
    HALF_AROUND,
    HALF_FILL,
    HALF_POSITION,
    HALF_NEXT,
    HALF_CYCLE,
    HALF_LEFT,
    CYCLE_WINDING,
    CYCLE_KNOWN,
    CYCLE_SEED,
    CYCLE_START,
    CYCLE_MEMBERS,
    CYCLE_FILL,
    CYCLE_RELATIVE,
    CYCLE_PART,
    CYCLE_SEEDS,
    CYCLE_QUEUE,
    BOUNDARY_OUT,
    BOUNDARY_LEAVES,
    BOUNDARY_MEET,
    BOUNDARY_USED,
    BOUNDARY_SEEN
  }

  /** Elements of the longest array kept for the next use (16 MB of ints). */
  static final int MAX_KEPT = 1 << 22;

  private static final ThreadLocal<Object[]> ARRAYS =
      ThreadLocal.withInitial(() -> new Object[Slot.values().length]);

  private Scratch() {}

  /** An array of at least {@code n} ints, holding anything. */
  static int[] ints(Slot slot, int n) {
    return array(slot, n, int[].class, int[]::new);
  }

  /** An array of at least {@code n} ints, the first {@code n} of them {@code value}. */
  static int[] ints(Slot slot, int n, int value) {
    int[] a = ints(slot, n);
    Arrays.fill(a, 0, n, value);
    return a;
  }

  /** An array of at least {@code n} longs, holding anything. */
  static long[] longs(Slot slot, int n) {
    return array(slot, n, long[].class, long[]::new);
  }

  /** An array of at least {@code n} doubles, holding anything. */
  static double[] doubles(Slot slot, int n) {
    return array(slot, n, double[].class, double[]::new);
  }

  /** An array of at least {@code n} booleans, the first {@code n} of them false. */
  static boolean[] falses(Slot slot, int n) {
    boolean[] a = array(slot, n, boolean[].class, boolean[]::new);
    Arrays.fill(a, 0, n, false);
    return a;
  }

  /**
   * The array in {@code slot} when it is of {@code type} and holds {@code n} elements; else a new
   * one, kept in the slot unless longer than {@link #MAX_KEPT}.
   */
  private static <A> A array(Slot slot, int n, Class<A> type, IntFunction<A> make) {
    Object[] kept = ARRAYS.get();
    Object a = kept[slot.ordinal()];
    if (type.isInstance(a) && Array.getLength(a) >= n) {
      return type.cast(a);
    }
    A made = make.apply(n);
    if (n <= MAX_KEPT) {
      kept[slot.ordinal()] = made;
    }
    return made;
  }
}
