package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A thread's working arrays: kept per slot and per thread, filled where asked, bounded. */
class ScratchTest {

  @Test
  void aSlotGivesItsArrayBackWhileItIsLongEnough() {
    int[] first = Scratch.ints(Scratch.Slot.UNION_X, 100);
    first[7] = 42;
    int[] again = Scratch.ints(Scratch.Slot.UNION_X, 50);
    assertSame(first, again);
    assertEquals(42, again[7], "what the last user left");
    int[] longer = Scratch.ints(Scratch.Slot.UNION_X, 101);
    assertNotSame(first, longer);
    assertSame(longer, Scratch.ints(Scratch.Slot.UNION_X, 10));
    // Another slot has its own.
    assertNotSame(longer, Scratch.ints(Scratch.Slot.UNION_Y, 10));
  }

  @Test
  void filledArraysAreFilledAsFarAsAsked() {
    int[] a = Scratch.ints(Scratch.Slot.CYCLE_SEED, 20, 5);
    a[19] = 9;
    a = Scratch.ints(Scratch.Slot.CYCLE_SEED, 20, -1);
    for (int i = 0; i < 20; i++) {
      assertEquals(-1, a[i]);
    }
    boolean[] b = Scratch.falses(Scratch.Slot.BOUNDARY_OUT, 8);
    b[3] = true;
    assertFalse(Scratch.falses(Scratch.Slot.BOUNDARY_OUT, 8)[3]);
  }

  @Test
  void eachThreadHasItsOwnAndTheLongestAreNotKept() throws Exception {
    long[] mine = Scratch.longs(Scratch.Slot.EDGE_KEYS, 16);
    long[][] theirs = new long[1][];
    Thread t = new Thread(() -> theirs[0] = Scratch.longs(Scratch.Slot.EDGE_KEYS, 16));
    t.start();
    t.join();
    assertNotSame(mine, theirs[0]);
    double[] huge = Scratch.doubles(Scratch.Slot.SEGMENT_X0, Scratch.MAX_KEPT + 1);
    assertTrue(huge.length > Scratch.MAX_KEPT);
    assertNotSame(huge, Scratch.doubles(Scratch.Slot.SEGMENT_X0, 1));
  }
}
