package io.tilebeam.transforms.repair;

/**
 * Pairs of ints (a grid point's coordinates, an edge's point ids) to dense ids 0, 1, 2, ... in the
 * order they were first seen, by open addressing on the pair packed in a long: no boxing, and the
 * same ids for the same sequence of pairs on every run.
 *
 * <p>Keys, ids and a flag of each slot in three arrays: the flags, probed first, are dense, and the
 * mix keeps pairs that come in sequence (a ring's points, its edges' ids) in nearby slots. (A table
 * of keys and ids side by side with Fibonacci hashing measured 15-25 % slower on such pairs.)
 */
final class PairIds {
  // Slots in use: the first capacity of each array (a power of two; the arrays may be longer).
  private int capacity;
  private long[] keys;
  private int[] values;
  private boolean[] used;
  private int size;

  /** A map for a few pairs; it grows as needed. */
  PairIds() {
    this(0);
  }

  /**
   * A map sized for about {@code expected} pairs, so that one whose size is known (the points of
   * the rings about to be noded) does not grow through every power of two on its way there.
   */
  PairIds(int expected) {
    capacity = capacityFor(expected);
    keys = new long[capacity];
    values = new int[capacity];
    used = new boolean[capacity];
  }

  /**
   * {@link #PairIds(int)} on this thread's arrays in the three slots ({@link Scratch}): for a map
   * used once per piece, which would otherwise make megabytes of table for each.
   */
  PairIds(int expected, Scratch.Slot keys, Scratch.Slot values, Scratch.Slot used) {
    capacity = capacityFor(expected);
    this.keys = Scratch.longs(keys, capacity);
    this.values = Scratch.ints(values, capacity);
    this.used = Scratch.falses(used, capacity);
  }

  private static int capacityFor(int expected) {
    int capacity = 1024;
    while (capacity < (long) expected * 2 && capacity < 1 << 30) {
      capacity <<= 1;
    }
    return capacity;
  }

  /** The id of the pair, a new one when it was not seen before. */
  int idOf(int a, int b) {
    long key = key(a, b);
    int i = slot(key);
    if (used[i]) {
      return values[i];
    }
    used[i] = true;
    keys[i] = key;
    values[i] = size;
    if (++size * 2 > capacity) {
      grow();
    }
    return size - 1;
  }

  /** Whether the pair was seen. */
  boolean contains(int a, int b) {
    return used[slot(key(a, b))];
  }

  /** The slot that holds {@code key}, or the free one where it would go. */
  private int slot(long key) {
    int mask = capacity - 1;
    int i = mix(key) & mask;
    while (used[i] && keys[i] != key) {
      i = (i + 1) & mask;
    }
    return i;
  }

  /** How many pairs were seen. */
  int size() {
    return size;
  }

  private static long key(int a, int b) {
    return ((long) a << 32) | (b & 0xffffffffL);
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    boolean[] oldUsed = used;
    int oldCapacity = capacity;
    capacity *= 2;
    keys = new long[capacity];
    values = new int[capacity];
    used = new boolean[capacity];
    int mask = capacity - 1;
    for (int j = 0; j < oldCapacity; j++) {
      if (oldUsed[j]) {
        int i = mix(oldKeys[j]) & mask;
        while (used[i]) {
          i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = oldKeys[j];
        values[i] = oldValues[j];
      }
    }
  }

  private static int mix(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 29));
  }
}
