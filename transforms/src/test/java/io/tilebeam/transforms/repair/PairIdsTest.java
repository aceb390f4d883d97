package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Dense ids for pairs of ints, in the order first seen, through growth. */
class PairIdsTest {

  @Test
  void idsCountFromZeroInTheOrderPairsAreFirstSeen() {
    PairIds ids = new PairIds();
    assertEquals(0, ids.idOf(3, 4));
    assertEquals(1, ids.idOf(4, 3));
    assertEquals(0, ids.idOf(3, 4));
    assertEquals(2, ids.idOf(Integer.MIN_VALUE, 0));
    assertEquals(3, ids.idOf(0, Integer.MIN_VALUE));
    assertEquals(4, ids.idOf(-1, -1));
    assertEquals(2, ids.idOf(Integer.MIN_VALUE, 0));
    assertTrue(ids.contains(-1, -1));
    assertFalse(ids.contains(-1, 0));
    assertEquals(5, ids.size());
  }

  @Test
  void manyPairsKeepTheirIdsAsTheTableGrows() {
    // Grid points of a tile and beyond, many repeated: the ids a HashMap hands out the same way.
    PairIds ids = new PairIds(10);
    Map<Long, Integer> expected = new HashMap<>();
    Random random = new Random(5);
    for (int i = 0; i < 200_000; i++) {
      int x = random.nextInt(3000) - 500;
      int y = random.nextInt(3000) - 500;
      int want =
          expected.computeIfAbsent(((long) x << 32) | (y & 0xffffffffL), k -> expected.size());
      assertEquals(want, ids.idOf(x, y));
    }
    assertEquals(expected.size(), ids.size());
    for (long key : expected.keySet()) {
      assertTrue(ids.contains((int) (key >> 32), (int) key));
    }
  }
}
