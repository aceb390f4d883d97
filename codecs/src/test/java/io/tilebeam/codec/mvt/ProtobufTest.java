package io.tilebeam.codec.mvt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The protobuf wire format as the encoding guide spells it out, byte by byte. */
class ProtobufTest {

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  @Test
  void varintsTakeSevenBitsAByteLowFirst() {
    // 150 = 0b1_0010110: 0x96 0x01 (the guide's example), field 1 wire type 0: tag 0x08.
    assertArrayEquals(
        bytes(0x08, 0x96, 0x01), new Protobuf.Writer().varintField(1, 150).toByteArray());
    assertArrayEquals(bytes(0x08, 0x00), new Protobuf.Writer().varintField(1, 0).toByteArray());
    assertArrayEquals(bytes(0x08, 0x7f), new Protobuf.Writer().varintField(1, 127).toByteArray());
    assertArrayEquals(
        bytes(0x08, 0x80, 0x01), new Protobuf.Writer().varintField(1, 128).toByteArray());
    // -1 as a 64-bit varint: ten bytes, the last holding the top bit.
    assertArrayEquals(
        bytes(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
        new Protobuf.Writer().varintField(1, -1).toByteArray());
  }

  @Test
  void aPackedFieldIsItsVarintsLengthDelimited() {
    // Field 4, wire type 2 (tag 0x22); 3, 270 and 86942 take 1 + 2 + 3 bytes (the guide's example).
    int[] values = {3, 270, 86942, 99};
    assertArrayEquals(
        bytes(0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05),
        new Protobuf.Writer().packedField(4, values, 3).toByteArray());
    // Unsigned 32-bit: -1 is 0xffffffff, five bytes.
    assertArrayEquals(
        bytes(0x22, 0x05, 0xff, 0xff, 0xff, 0xff, 0x0f),
        new Protobuf.Writer().packedField(4, new int[] {-1}, 1).toByteArray());
    assertEquals(0, new Protobuf.Writer().packedField(4, values, 0).toByteArray().length);
  }

  /**
   * A message written into another from its writer gives the bytes of its array written as a
   * length-delimited field, for small and large messages, and a cleared writer starts over.
   */
  @Test
  void aMessageFieldIsTheMessagesBytesLengthDelimited() {
    Protobuf.Writer message = new Protobuf.Writer();
    for (int n : new int[] {0, 3, 200, 70_000}) {
      int[] values = new int[n];
      for (int i = 0; i < n; i++) {
        values[i] = i * 31;
      }
      message.clear().varintField(1, n).packedField(4, values, n);
      byte[] expected =
          new Protobuf.Writer()
              .varintField(15, 2)
              .bytesField(2, message.toByteArray())
              .toByteArray();
      assertArrayEquals(
          expected,
          new Protobuf.Writer().varintField(15, 2).messageField(2, message).toByteArray());
    }
  }

  @Test
  void manyFieldsGrowTheBufferAndReadBack() throws Exception {
    Protobuf.Writer w = new Protobuf.Writer();
    int[] values = new int[5000];
    for (int i = 0; i < values.length; i++) {
      values[i] = i * 977;
    }
    w.stringField(1, "countries").packedField(2, values, values.length).fixed64Field(3, 42L);
    Protobuf.Reader r = new Protobuf.Reader(w.toByteArray());
    assertTrue(r.next());
    assertEquals("countries", r.string());
    assertTrue(r.next());
    Protobuf.Reader packed = r.message();
    for (int value : values) {
      assertEquals(value, packed.varint());
    }
    assertTrue(!packed.hasMore());
    assertTrue(r.next());
    assertEquals(3, r.field());
  }
}
