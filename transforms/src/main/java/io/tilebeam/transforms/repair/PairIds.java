package io.tilebeam.transforms.repair;

/**
 * Pairs of ints (a grid point's coordinates, an edge's point ids) to dense ids 0, 1, 2, ... in the
 * order they were first seen, by open addressing on the pair packed in a long: no boxing, and the
 * same ids for the same sequence of pairs on every run.
 *
 * <p>A slot's key and id sit side by side in one array, so a probe reads one cache line: the tables
 * of a large tile's snap rounding are megabytes, and their lookups were cache misses.
 */
final class PairIds {
  // Slot i: table[2i] the key, table[2i + 1] its id + 1 (0: the slot is free).
  private long[] table;
  private int shift;
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
    int capacity = 1024;
    while (capacity < (long) expected * 2 && capacity < 1 << 29) {
      capacity <<= 1;
    }
    allocate(capacity);
  }

  private void allocate(int capacity) {
    table = new long[2 * capacity];
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  /** The id of the pair, a new one when it was not seen before. */
  int idOf(int a, int b) {
    long key = key(a, b);
    int i = slot(key);
    long id = table[2 * i + 1];
    if (id != 0) {
      return (int) id - 1;
    }
    table[2 * i] = key;
    table[2 * i + 1] = ++size;
    if (size * 2L > table.length / 2) {
      grow();
    }
    return size - 1;
  }

  /** Whether the pair was seen. */
  boolean contains(int a, int b) {
    return table[2 * slot(key(a, b)) + 1] != 0;
  }

  /** The slot that holds {@code key}, or the free one where it would go. */
  private int slot(long key) {
    int mask = table.length / 2 - 1;
    int i = mix(key);
    while (table[2 * i + 1] != 0 && table[2 * i] != key) {
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
    long[] old = table;
    allocate(old.length);
    for (int j = 0; j < old.length; j += 2) {
      if (old[j + 1] != 0) {
        int i = slot(old[j]);
        table[2 * i] = old[j];
        table[2 * i + 1] = old[j + 1];
      }
    }
  }

  /** Fibonacci hashing: the top bits of the key times 2^64 / φ, which every key bit reaches. */
  private int mix(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }
}
