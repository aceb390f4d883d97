package io.tilebeam.transforms.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import org.apache.beam.sdk.util.VarInt;
import org.junit.jupiter.api.Test;

/** Varints written in memory, their sizes counted ahead, and arrays handed over whole. */
class VarintBytesTest {

  /**
   * Beam's count of a varint's bytes, which a coding counted ahead uses, is what writing takes, at
   * every boundary of 7 bits and at random.
   */
  @Test
  void countsTheBytesAVarintTakes() {
    Random random = new Random(3);
    long[] values = new long[200];
    for (int i = 0; i < 64; i++) {
      values[2 * i] = 1L << i;
      values[2 * i + 1] = (1L << i) - 1;
    }
    for (int i = 128; i < values.length; i++) {
      values[i] = random.nextLong() >>> random.nextInt(64);
    }
    for (long v : values) {
      VarintBytes b = new VarintBytes(16);
      b.varint(v);
      assertEquals(b.size(), VarInt.getLength(v), Long.toString(v));
    }
    assertEquals(10, VarInt.getLength(-1L));
    assertEquals(1, VarInt.getLength(0L));
  }

  /**
   * An array made at its counted size is handed over whole once filled; any other array is copied
   * (a growable one may be cleared and written again).
   */
  @Test
  void handsOverOnlyAnArrayMadeAtItsSize() {
    VarintBytes exact = VarintBytes.ofSize(VarInt.getLength(300L) + 1);
    exact.varint(300);
    exact.write(7);
    byte[] out = exact.bytes();
    assertSame(out, exact.bytes());
    assertArrayEquals(new byte[] {(byte) 0xAC, 0x02, 7}, out);

    VarintBytes growable = new VarintBytes(3);
    for (int i = 0; i < 16; i++) {
      growable.write(i);
    }
    byte[] first = growable.bytes();
    assertNotSame(first, growable.bytes());
    growable.clear();
    growable.write(99);
    assertEquals(0, first[0]);
  }
}
