package io.tilebeam.codec.pmtiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The PMTiles v3 writer: Hilbert tile ids as the specification's examples give them; an archive of
 * an ocean of identical tiles and thousands of distinct ones stores each content once, runs of
 * identical neighbours as one entry, splits its directory into leaves, and reads back every tile,
 * its metadata and its header; the same tiles give the same bytes.
 */
class PmtilesWriterTest {

  @ParameterizedTest
  @CsvSource({
    "0,0,0,0",
    "1,0,0,1",
    "1,0,1,2",
    "1,1,1,3",
    "1,1,0,4",
    "2,0,0,5",
    "12,3423,1763,19078479",
    "20,1000000,500000,1194873097215"
  })
  void tileIdsFollowTheHilbertCurve(int z, long x, long y, long id) {
    assertEquals(id, HilbertTileId.of(z, x, y));
    assertArrayEquals(new long[] {z, x, y}, HilbertTileId.tile(id));
  }

  @Test
  void tileIdsGoBackToTheirTilesAtEveryZoom() {
    Random random = new Random(3);
    for (int z = 0; z <= HilbertTileId.MAX_ZOOM; z++) {
      for (int k = 0; k < 50; k++) {
        long n = 1L << z;
        long x = Math.floorMod(random.nextLong(), n);
        long y = Math.floorMod(random.nextLong(), n);
        assertArrayEquals(new long[] {z, x, y}, HilbertTileId.tile(HilbertTileId.of(z, x, y)));
      }
    }
    assertThrows(IllegalArgumentException.class, () -> HilbertTileId.of(3, 8, 0));
  }

  @Test
  void anOceanIsStoredOnceAndEveryTileReadsBack() throws Exception {
    Map<String, byte[]> contents = new HashMap<>();
    List<PmtilesWriter.Tile> tiles = TestArchives.oceanAndLand(17, 200, contents);
    PmtilesWriter.Info info =
        new PmtilesWriter.Info(1, 1, new double[] {-180, -85, 180, 85}, "{\"name\":\"test\"}");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PmtilesHeader written = PmtilesWriter.write(tiles, t -> contents.get(t.checksum()), info, out);
    byte[] archive = out.toByteArray();

    PmtilesReader reader = PmtilesReader.of(archive);
    PmtilesHeader h = reader.header();
    assertEquals(written, h);
    assertEquals(tiles.size(), h.addressedTiles());
    assertEquals(1 + 40_000, h.tileContents(), "the ocean once, every land tile once");
    assertTrue(h.tileEntries() < tiles.size(), h.tileEntries() + " entries");
    assertTrue(h.leavesLength() > 0, "leaf directories");
    assertTrue(h.rootOffset() + h.rootLength() <= PmtilesWriter.FIRST_BYTES);
    assertEquals(0, h.minZoom());
    assertEquals(12, h.maxZoom());
    assertEquals(-1_800_000_000, h.minLonE7());
    assertEquals(850_000_000, h.maxLatE7());
    assertEquals("{\"name\":\"test\"}", reader.metadata());
    for (PmtilesWriter.Tile t : tiles) {
      assertArrayEquals(contents.get(t.checksum()), reader.tile(t.z(), t.x(), t.y()), t.toString());
    }
    assertNull(reader.tile(8, 0, 0));

    ByteArrayOutputStream again = new ByteArrayOutputStream();
    List<PmtilesWriter.Tile> shuffled = new ArrayList<>(tiles);
    java.util.Collections.shuffle(shuffled, new Random(5));
    PmtilesWriter.write(shuffled, t -> contents.get(t.checksum()), info, again);
    assertArrayEquals(archive, again.toByteArray(), "the same tiles, the same bytes");
  }

  @Test
  void twoTilesAtOnePlaceOrNoneAreRefused() {
    PmtilesWriter.Info info = new PmtilesWriter.Info(1, 1, new double[] {0, 0, 1, 1}, "{}");
    List<PmtilesWriter.Tile> twice =
        List.of(new PmtilesWriter.Tile(1, 0, 0, 1, "a"), new PmtilesWriter.Tile(1, 0, 0, 1, "b"));
    assertThrows(
        IllegalArgumentException.class,
        () -> PmtilesWriter.write(twice, t -> new byte[1], info, new ByteArrayOutputStream()));
    assertThrows(
        IllegalArgumentException.class,
        () -> PmtilesWriter.write(List.of(), t -> new byte[1], info, new ByteArrayOutputStream()));
  }
}
