package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

class PlannedTileCoderTest {

  @Test
  void plannedTilesRoundTripToFixedBytes() throws Exception {
    PlannedTile tile = new PlannedTile("europe", TileId.of(9, 300, 170));
    byte[] bytes = CoderUtils.encodeToByteArray(PlannedTileCoder.of(), tile);
    // "europe" (length 6), then 9, 300 and 170 as variable-length integers.
    assertEquals("066575726f706509ac02aa01", HexFormat.of().formatHex(bytes));
    assertEquals(tile, CoderUtils.decodeFromByteArray(PlannedTileCoder.of(), bytes));
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThrows(Exception.class, () -> CoderUtils.decodeFromByteArray(PlannedTileCoder.of(), cut));
  }

  @Test
  void theLargestIndicesOfADeepZoomSurvive() throws Exception {
    PlannedTile tile = new PlannedTile("é-layer", TileId.of(30, (1L << 30) - 1, (1L << 30) - 2));
    byte[] bytes = CoderUtils.encodeToByteArray(PlannedTileCoder.of(), tile);
    assertEquals(tile, CoderUtils.decodeFromByteArray(PlannedTileCoder.of(), bytes));
    assertArrayEquals(bytes, CoderUtils.encodeToByteArray(PlannedTileCoder.of(), tile));
  }
}
