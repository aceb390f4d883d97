package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A ring that runs a hair beside the tile's edge (data drawn on a grid whose line the buffered edge
 * nearly meets, as countries-land-10m along -87.1875° at zoom 2) is put on the edge, so the sliver
 * between them goes with the other bridges instead of folding when rounded.
 */
class TileAssemblerTest {

  @ParameterizedTest
  @CsvSource({"2e-8, 0", "1e-9, 0", "-2e-8, 0", "1e-3, 4"})
  void runsWithinAHairOfTheEdgeAreOnIt(double offset, int pointsOffTheEdge) {
    // Tile [-9,705,668.1 - 1e7, -9,705,668.1] x [0, 1e7]: the east edge sits where the real
    // case's did.
    double east = -9705668.10353854;
    double west = east - 1e7;
    TileAssembler assembler = new TileAssembler(west, 0, east, 1e7);
    double beside = east - offset;
    double[] ring = {
      west, 0, east, 0, east, 2e6, beside, 2e6, beside, 5e6, east, 5e6, east, 1e7, west + 3e6, 7e6
    };
    List<TileAssembler.Polygon> polygons =
        assembler.assemble(List.of(PointBuffer.of(ring, ring.length / 2)));
    assertEquals(1, polygons.size());
    double[] shell = polygons.get(0).shell();
    int off = 0;
    for (int i = 0; i < shell.length; i += 2) {
      assertTrue(shell[i] >= west && shell[i] <= east + Math.abs(offset), "x " + shell[i]);
      if (shell[i] != east && Math.abs(shell[i] - east) < 1) {
        off++;
      }
    }
    // Within the hair the run is the edge itself; a millimetre away it is the polygon's own.
    assertEquals(pointsOffTheEdge == 0 ? 0 : 2, off);
  }
}
