package io.tilebeam.transforms.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.junit.jupiter.api.Test;

/** The chunked coding of pieces and rendered features: golden bytes, chunk bounds, corruption. */
class FeatureTriplesTest {

  private static byte[] encode(List<FeaturePiece> pieces) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FeatureTriples.encode(pieces, FeaturePiece.PARTS, out);
    return out.toByteArray();
  }

  private static List<FeaturePiece> decode(byte[] bytes) throws IOException {
    return FeatureTriples.decode(new ByteArrayInputStream(bytes), "pieces", FeaturePiece::new);
  }

  @Test
  void anEmptyListIsTheEndMarkerAlone() throws IOException {
    assertEquals("00", HexFormat.of().formatHex(encode(List.of())));
    assertEquals(List.of(), decode(new byte[] {0}));
  }

  @Test
  void oneChunkHoldsItsCountLengthAndItems() throws IOException {
    byte[] bytes = encode(List.of(new FeaturePiece("a", new byte[] {7}, "{}")));
    assertEquals("01" + "07" + "0161" + "0107" + "027b7d" + "00", HexFormat.of().formatHex(bytes));
  }

  @Test
  void manyItemsGoInBoundedChunksAndComeBackInOrder() throws IOException {
    List<FeaturePiece> pieces = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      pieces.add(new FeaturePiece("#" + i, new byte[i % 300], "{\"i\":" + i + "}"));
    }
    byte[] bytes = encode(pieces);
    assertEquals(pieces, decode(bytes));
    // Several chunks: the bytes hold more than one chunk's worth.
    assertTrue(bytes.length > 2 * FeatureTriples.CHUNK_BYTES, "bytes: " + bytes.length);
  }

  @Test
  void anItemLargerThanAChunkIsAChunkOfItsOwn() throws IOException {
    List<FeaturePiece> pieces =
        List.of(
            new FeaturePiece("small", new byte[3], "{}"),
            new FeaturePiece("large", new byte[3 * FeatureTriples.CHUNK_BYTES], "{}"),
            new FeaturePiece("after", new byte[1], "{}"));
    assertEquals(pieces, decode(encode(pieces)));
  }

  @Test
  void theItemThatFillsAChunkIsWrittenAfterItWithTheSameBytes() throws IOException {
    // What the chunk would hold with the large item copied in: count 2, the length of both, items.
    List<FeaturePiece> pieces =
        List.of(
            new FeaturePiece("s", new byte[] {1, 2}, "{}"),
            new FeaturePiece("L", new byte[FeatureTriples.CHUNK_BYTES], "{}"));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(new byte[] {2});
    int length = (1 + 1) + (1 + 2) + (1 + 2) + (1 + 1) + (3 + FeatureTriples.CHUNK_BYTES) + (1 + 2);
    expected.write(new byte[] {(byte) (length & 0x7F | 0x80), (byte) (length >>> 7 & 0x7F | 0x80)});
    expected.write(new byte[] {(byte) (length >>> 14)});
    expected.write(new byte[] {1, 's', 2, 1, 2, 2, '{', '}', 1, 'L'});
    expected.write(new byte[] {(byte) 0x80, (byte) 0x80, 4});
    expected.write(new byte[FeatureTriples.CHUNK_BYTES]);
    expected.write(new byte[] {2, '{', '}', 0});
    byte[] bytes = encode(pieces);
    assertEquals(HexFormat.of().formatHex(expected.toByteArray()), HexFormat.of().formatHex(bytes));
    assertEquals(pieces, decode(bytes));
  }

  @Test
  void itemsAcrossTheReadersBufferComeBackWhole() throws IOException {
    // Items whose parts straddle the reader's buffer of one chunk's size, at every offset.
    List<FeaturePiece> pieces = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      pieces.add(
          new FeaturePiece(
              "id" + i, new byte[(i * 7919) % 3000 + (i % 50 == 0 ? 200_000 : 0)], "{}"));
    }
    pieces.add(new FeaturePiece("x".repeat(FeatureTriples.CHUNK_BYTES + 5), new byte[1], "{}"));
    pieces.add(
        new FeaturePiece("y", new byte[2], "\"" + "p".repeat(FeatureTriples.CHUNK_BYTES) + "\""));
    assertEquals(pieces, decode(encode(pieces)));
  }

  @Test
  void aLargeItemCutShortIsRefused() throws IOException {
    byte[] bytes =
        encode(List.of(new FeaturePiece("a", new byte[3 * FeatureTriples.CHUNK_BYTES], "{}")));
    byte[] cut = java.util.Arrays.copyOf(bytes, 2 * FeatureTriples.CHUNK_BYTES);
    IOException e = assertThrows(IOException.class, () -> decode(cut));
    assertTrue(e.getMessage().contains("cut short: " + (cut.length - 4)), e.getMessage());
  }

  @Test
  void aLengthPastTheChunkIsRefused() throws IOException {
    byte[] bytes = encode(List.of(new FeaturePiece("a", new byte[] {7}, "{}")));
    bytes[4] = 0x09; // the geometry's length, now past the chunk's end
    CoderException e = assertThrows(CoderException.class, () -> decode(bytes));
    assertTrue(e.getMessage().contains("past the end of a chunk of pieces"), e.getMessage());
  }

  @Test
  void bytesLeftInAChunkAreRefused() throws IOException {
    byte[] bytes = encode(List.of(new FeaturePiece("a", new byte[] {7}, "{}")));
    byte[] longer = new byte[bytes.length + 1];
    System.arraycopy(bytes, 0, longer, 0, bytes.length - 1);
    longer[1] = 0x08; // the chunk claims one byte more than its item uses
    CoderException e = assertThrows(CoderException.class, () -> decode(longer));
    assertTrue(e.getMessage().contains("after the items"), e.getMessage());
  }

  @Test
  void aChunkCutShortIsRefused() throws IOException {
    byte[] bytes = encode(List.of(new FeaturePiece("a", new byte[] {7}, "{}")));
    byte[] cut = java.util.Arrays.copyOf(bytes, 5);
    assertThrows(IOException.class, () -> decode(cut));
  }
}
