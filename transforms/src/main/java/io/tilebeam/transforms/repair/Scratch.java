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
 * the method says otherwise; callers use the length they asked for, never {@code length}. A thread
 * keeps at most {@link #MAX_KEPT_BYTES} of arrays: one that would take it past that is made for the
 * one use and not kept, so that a piece of millions of points, whose arrays would take hundreds of
 * megabytes, leaves no more behind than a large piece of a few hundred thousand.
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
    BOUNDARY_SEEN,
    ROW_START,
    ROW_ENTRIES,
    ROW_FILL
  }

  /** Bytes of arrays one thread keeps for its next union, at most. */
  static final long MAX_KEPT_BYTES = 64L << 20;

  /** One thread's arrays, a slot each, and their bytes. */
  private static final class Kept {
    final Object[] arrays = new Object[Slot.values().length];
    final long[] bytesOf = new long[arrays.length];
    long bytes;
  }

  private static final ThreadLocal<Kept> KEPT = ThreadLocal.withInitial(Kept::new);

  private Scratch() {}

  /** An array of at least {@code n} ints, holding anything. */
  static int[] ints(Slot slot, int n) {
    return array(slot, n, int[].class, int[]::new, Integer.BYTES);
  }

  /** An array of at least {@code n} ints, the first {@code n} of them {@code value}. */
  static int[] ints(Slot slot, int n, int value) {
    int[] a = ints(slot, n);
    Arrays.fill(a, 0, n, value);
    return a;
  }

  /** An array of at least {@code n} longs, holding anything. */
  static long[] longs(Slot slot, int n) {
    return array(slot, n, long[].class, long[]::new, Long.BYTES);
  }

  /** An array of at least {@code n} doubles, holding anything. */
  static double[] doubles(Slot slot, int n) {
    return array(slot, n, double[].class, double[]::new, Double.BYTES);
  }

  /** An array of at least {@code n} booleans, the first {@code n} of them false. */
  static boolean[] falses(Slot slot, int n) {
    boolean[] a = array(slot, n, boolean[].class, boolean[]::new, 1);
    Arrays.fill(a, 0, n, false);
    return a;
  }

  /**
   * The array in {@code slot} when it is of {@code type} and holds {@code n} elements; else a new
   * one, kept in the slot in place of the old while the thread's arrays stay within {@link
   * #MAX_KEPT_BYTES}.
   */
  private static <A> A array(
      Slot slot, int n, Class<A> type, IntFunction<A> make, int elementBytes) {
    Kept kept = KEPT.get();
    int i = slot.ordinal();
    Object a = kept.arrays[i];
    if (type.isInstance(a) && Array.getLength(a) >= n) {
      return type.cast(a);
    }
    A made = make.apply(n);
    long bytes = (long) n * elementBytes;
    if (kept.bytes - kept.bytesOf[i] + bytes <= MAX_KEPT_BYTES) {
      kept.arrays[i] = made;
      kept.bytes += bytes - kept.bytesOf[i];
      kept.bytesOf[i] = bytes;
    }
    return made;
  }
}
