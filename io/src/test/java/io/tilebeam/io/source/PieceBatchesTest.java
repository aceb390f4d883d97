package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

/**
 * Pieces held per tile on their way to the join: every piece sent once, batches bounded, the held
 * bytes bounded; and the coder of what reaches the join.
 */
class PieceBatchesTest {

  private static FeaturePiece piece(int i, int wkbBytes) {
    return new FeaturePiece("#" + i, new byte[wkbBytes], "{\"n\":" + i + "}");
  }

  /** The pieces of every batch sent, by tile, in the order sent. */
  private static List<String> ids(List<KV<String, TileInput>> sent) {
    List<String> ids = new ArrayList<>();
    for (KV<String, TileInput> kv : sent) {
      for (FeaturePiece p : ((TileInput.Pieces) kv.getValue()).pieces()) {
        ids.add(kv.getKey() + ":" + p.id());
      }
    }
    return ids;
  }

  @Test
  void smallBatchesAreHeldUntilSentAndThenGoInTileOrder() {
    PieceBatches batches = new PieceBatches();
    List<KV<String, TileInput>> sent = new ArrayList<>();
    batches.add("l", TileId.of(7, 2, 1), piece(1, 50), sent::add);
    batches.add("l", TileId.of(6, 0, 0), piece(2, 50), sent::add);
    batches.add("l", TileId.of(7, 2, 1), piece(3, 50), sent::add);
    assertTrue(sent.isEmpty());
    batches.sendAll(sent::add);
    assertEquals(List.of("l/6/0/0", "l/7/2/1"), sent.stream().map(KV::getKey).toList());
    assertEquals(List.of("l/6/0/0:#2", "l/7/2/1:#1", "l/7/2/1:#3"), ids(sent));
    assertTrue(batches.isEmpty());
    batches.sendAll(sent::add);
    assertEquals(2, sent.size(), "nothing is sent twice");
  }

  @Test
  void aTileGoesOnWhenItsBatchIsFullAndTheOthersStay() {
    PieceBatches batches = new PieceBatches();
    List<KV<String, TileInput>> sent = new ArrayList<>();
    batches.add("l", TileId.of(1, 0, 0), piece(0, 10), sent::add);
    int n = 0;
    while (sent.isEmpty()) {
      batches.add("l", TileId.of(1, 1, 1), piece(++n, 10_000), sent::add);
    }
    assertEquals(1, sent.size());
    assertEquals("l/1/1/1", sent.get(0).getKey());
    int full = ((TileInput.Pieces) sent.get(0).getValue()).pieces().size();
    assertEquals(n, full);
    assertTrue(full * 10_000L >= PieceBatches.TILE_BYTES - 100L * full, "a batch is not cut short");
    assertTrue(full * 10_000L < PieceBatches.TILE_BYTES + 10_000, "a batch is not let grow");
    batches.sendAll(sent::add);
    assertEquals(List.of("l/1/0/0:#0"), ids(sent.subList(1, sent.size())));
  }

  @Test
  void everythingGoesWhenWhatIsHeldReachesItsBound() {
    PieceBatches batches = new PieceBatches();
    List<KV<String, TileInput>> sent = new ArrayList<>();
    // Many tiles, none of which fills its batch: the bound on all of them sends them.
    int tiles = (int) (PieceBatches.HELD_BYTES / (PieceBatches.TILE_BYTES / 2)) + 8;
    long added = 0;
    for (int t = 0; t < tiles && sent.isEmpty(); t++) {
      batches.add(
          "l", TileId.of(9, t, 0), piece(t, (int) (PieceBatches.TILE_BYTES / 2)), sent::add);
      added++;
    }
    assertTrue(sent.size() > 1, "every batch held went at once");
    assertTrue(batches.isEmpty());
    assertEquals(added, ids(sent).size());
  }

  @Test
  void droppedPiecesAreNeverSent() {
    PieceBatches batches = new PieceBatches();
    List<KV<String, TileInput>> sent = new ArrayList<>();
    batches.add("l", TileId.of(3, 1, 1), piece(1, 10), sent::add);
    batches.drop();
    batches.sendAll(sent::add);
    assertTrue(sent.isEmpty());
  }

  @Test
  void theJoinsInputsHaveFixedBytesAndRoundTrip() throws Exception {
    TileWork work =
        new TileWork(
            "nightly",
            5,
            "countries",
            "WebMercatorQuad",
            TileId.of(8, 131, 87),
            "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
            "OGC:CRS84",
            "EPSG:3857",
            "flatgeobuf",
            "{}");
    TileInput pieces =
        new TileInput.Pieces(
            List.of(
                new FeaturePiece("a", new byte[] {1, 2}, "{}"),
                new FeaturePiece("Zürich", new byte[0], "{\"n\":1}")));
    byte[] bytes = CoderUtils.encodeToByteArray(TileInputCoder.of(), pieces);
    assertEquals(
        "02"
            + "02"
            + "19"
            + "0161"
            + "020102"
            + "027b7d"
            + "075ac3bc7269636800"
            + "077b226e223a317d"
            + "00",
        HexFormat.of().formatHex(bytes));
    assertEquals(pieces, CoderUtils.decodeFromByteArray(TileInputCoder.of(), bytes));
    TileInput claim = new TileInput.Claim(WorkKey.of(work), work);
    byte[] claimBytes = CoderUtils.encodeToByteArray(TileInputCoder.of(), claim);
    assertEquals(claim, CoderUtils.decodeFromByteArray(TileInputCoder.of(), claimBytes));
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThrows(Exception.class, () -> CoderUtils.decodeFromByteArray(TileInputCoder.of(), cut));
  }

  /** A piece of {@code wkbBytes} of seeded noise, so that its parts differ. */
  private static FeaturePiece noise(String id, int wkbBytes, long seed) {
    byte[] wkb = new byte[wkbBytes];
    new java.util.Random(seed).nextBytes(wkb);
    return new FeaturePiece(id, wkb, "{\"name\":\"" + id + "\"}");
  }

  @Test
  void aLargePieceGoesAtOnceInPartsNoneLargerThanAPartAndTheBatchStays() {
    PieceBatches batches = new PieceBatches();
    List<KV<String, TileInput>> sent = new ArrayList<>();
    batches.add("l", TileId.of(0, 0, 0), piece(1, 10), sent::add);
    FeaturePiece large = noise("canada", 3 * PieceParts.PART_BYTES + 1000, 7);
    batches.add("l", TileId.of(0, 0, 0), large, sent::add);
    assertEquals(4, sent.size(), sent.toString());
    for (int i = 0; i < sent.size(); i++) {
      assertEquals("l/0/0/0", sent.get(i).getKey());
      TileInput.Part part = (TileInput.Part) sent.get(i).getValue();
      assertEquals(i, part.index());
      assertEquals(4, part.count());
      assertTrue(part.bytes().length <= PieceParts.PART_BYTES);
    }
    assertTrue(!batches.isEmpty(), "the small piece is still held");
    batches.sendAll(sent::add);
    assertEquals(List.of("l/0/0/0:#1"), ids(sent.subList(4, sent.size())));
  }

  @Test
  void partsMakeTheirPiecesAgainInAnyOrderAndARepeatedPieceTwice() {
    FeaturePiece a = noise("a", 5 * PieceParts.PART_BYTES, 1);
    FeaturePiece b = noise("b", PieceParts.PART_BYTES + 1, 2);
    List<TileInput.Part> parts = new ArrayList<>();
    parts.addAll(PieceParts.split(a, PieceParts.PART_BYTES));
    parts.addAll(PieceParts.split(b, PieceParts.PART_BYTES));
    parts.addAll(PieceParts.split(b, PieceParts.PART_BYTES));
    java.util.Collections.shuffle(parts, new java.util.Random(3));
    PieceParts.Assembler assembler = new PieceParts.Assembler();
    parts.forEach(assembler::add);
    List<FeaturePiece> made = new ArrayList<>();
    assertEquals(null, assembler.pieces(made::add));
    made.sort(java.util.Comparator.comparing(FeaturePiece::id));
    assertEquals(List.of(a, b, b), made);
  }

  @Test
  void aPieceMissingAPartIsSaidNotMade() {
    List<TileInput.Part> parts =
        new ArrayList<>(
            PieceParts.split(noise("norway", 3 * PieceParts.PART_BYTES - 100, 4), 1 << 18));
    parts.remove(1);
    PieceParts.Assembler assembler = new PieceParts.Assembler();
    parts.forEach(assembler::add);
    List<FeaturePiece> made = new ArrayList<>();
    String wrong = assembler.pieces(made::add);
    assertEquals(
        "the piece of feature norway came incomplete from the join: part 2 of 3 seen 0 times,"
            + " part 1 1",
        wrong);
    assertTrue(made.isEmpty());
  }

  @Test
  void aPartHasFixedBytesAndItsLengthsAreCheckedBeforeReading() throws Exception {
    FeaturePiece p = new FeaturePiece("a", new byte[] {1, 2, 3, 4, 5}, "{}");
    List<TileInput.Part> parts = PieceParts.split(p, 8);
    // The piece's coding: 1 item, 11 bytes (id "a", 5 WKB bytes, "{}"), the end: 14 bytes.
    assertEquals(2, parts.size());
    assertEquals("010b016105010203", HexFormat.of().formatHex(parts.get(0).bytes()));
    assertEquals(32, parts.get(0).token().length);
    assertTrue(Arrays.equals(parts.get(0).token(), parts.get(1).token()), "one piece, one digest");
    byte[] bytes = CoderUtils.encodeToByteArray(TileInputCoder.of(), parts.get(1));
    String token = HexFormat.of().formatHex(parts.get(1).token());
    // Tag, id, digest, index 1, count 2, the last 6 bytes of the coding.
    assertEquals(
        "04" + "0161" + token + "01" + "02" + "06" + "0405027b7d00",
        HexFormat.of().formatHex(bytes));
    assertEquals(parts.get(1), CoderUtils.decodeFromByteArray(TileInputCoder.of(), bytes));
    // A slice claiming a gigabyte is refused before an array of its size is made.
    byte[] huge = HexFormat.of().parseHex("04" + "0161" + token + "00" + "01" + "8080808004");
    Exception refused =
        assertThrows(
            Exception.class, () -> CoderUtils.decodeFromByteArray(TileInputCoder.of(), huge));
    // By the bound, not by reading short after allocating.
    assertTrue(
        String.valueOf(refused.getMessage()).contains("of 1073741824 bytes"),
        String.valueOf(refused.getMessage()));
    // Nor a piece in more parts than any array could be cut into.
    byte[] tooMany = HexFormat.of().parseHex("04" + "0161" + token + "00" + "ffffffff07" + "00");
    assertThrows(
        Exception.class, () -> CoderUtils.decodeFromByteArray(TileInputCoder.of(), tooMany));
    // A part out of its count is not a part.
    byte[] outOfRange = HexFormat.of().parseHex("04" + "0161" + token + "02" + "02" + "00");
    assertThrows(
        Exception.class, () -> CoderUtils.decodeFromByteArray(TileInputCoder.of(), outOfRange));
  }
}
