package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** A thread's working arrays: kept per slot and per thread, filled where asked, bounded. */
class ScratchTest {

  /** Runs {@code body} on a new thread, whose slots are empty whatever this one's tests left. */
  private static void onFreshThread(Runnable body) throws InterruptedException {
    Throwable[] failed = new Throwable[1];
    Thread fresh = new Thread(body);
    fresh.setUncaughtExceptionHandler((thread, e) -> failed[0] = e);
    fresh.start();
    fresh.join();
    if (failed[0] != null) {
      throw new AssertionError(failed[0]);
    }
  }

  @Test
  void aSlotGivesItsArrayBackWhileItIsLongEnough() throws Exception {
    onFreshThread(ScratchTest::slotsGiveTheirArraysBack);
  }

  private static void slotsGiveTheirArraysBack() {
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
  void eachThreadHasItsOwnAndKeepsNoMoreThanItsBudget() throws Exception {
    long[] mine = Scratch.longs(Scratch.Slot.EDGE_KEYS, 16);
    long[][] theirs = new long[1][];
    Thread t = new Thread(() -> theirs[0] = Scratch.longs(Scratch.Slot.EDGE_KEYS, 16));
    t.start();
    t.join();
    assertNotSame(mine, theirs[0]);
    // On a thread of its own: seven arrays of an eighth of the budget each are kept; a longer one
    // in place of one of them is kept too (its old bytes are freed first), up to the budget; one
    // past it is made but not kept.
    int eighth = (int) (Scratch.MAX_KEPT_BYTES / 8 / Double.BYTES);
    onFreshThread(
        () -> {
          Scratch.Slot[] slots = {
            Scratch.Slot.SEGMENT_X0, Scratch.Slot.SEGMENT_Y0, Scratch.Slot.SEGMENT_X1,
            Scratch.Slot.SEGMENT_Y1, Scratch.Slot.BOX_MIN_X, Scratch.Slot.BOX_MIN_Y,
            Scratch.Slot.BOX_MAX_X
          };
          double[][] made = new double[slots.length][];
          for (int k = 0; k < slots.length; k++) {
            made[k] = Scratch.doubles(slots[k], eighth);
          }
          for (int k = 0; k < slots.length; k++) {
            assertSame(made[k], Scratch.doubles(slots[k], 1), "slot " + k);
          }
          double[] longer = Scratch.doubles(Scratch.Slot.SEGMENT_X0, 2 * eighth);
          assertSame(longer, Scratch.doubles(Scratch.Slot.SEGMENT_X0, 1), "up to the budget");
          double[] over = Scratch.doubles(Scratch.Slot.SEGMENT_Y0, 2 * eighth);
          assertNotSame(over, Scratch.doubles(Scratch.Slot.SEGMENT_Y0, 1), "past the budget");
          assertSame(made[1], Scratch.doubles(Scratch.Slot.SEGMENT_Y0, 1), "the old one stays");
        });
  }
}
