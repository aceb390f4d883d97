package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TileCoverTest {

  private static final TileMatrixSet WM = TileMatrixSet.webMercatorQuad();
  private static final double H = TileMatrixSet.WEB_MERCATOR_HALF_WORLD;

  private static String cover(double minX, double minY, double maxX, double maxY, int z) {
    Optional<TileRange> r = TileCover.cover(new Bounds(minX, minY, maxX, maxY), WM.matrix(z));
    return r.map(t -> t.minX() + "-" + t.maxX() + "/" + t.minY() + "-" + t.maxY()).orElse("none");
  }

  @ParameterizedTest
  @CsvSource({
    // a tile's own bounds cover exactly that tile, at several zooms
    "0, 0, 0, 0-0/0-0",
    "1, 1, 0, 1-1/0-0",
    "3, 5, 2, 5-5/2-2",
    "12, 2047, 1361, 2047-2047/1361-1361",
  })
  void ownBoundsCoverExactlyThatTile(int z, long x, long y, String expected) {
    Bounds b = WM.matrix(z).tileBounds(x, y);
    assertEquals(expected, cover(b.minX(), b.minY(), b.maxX(), b.maxY(), z));
  }

  @Test
  void boxTouchingOnlyAnEdgeDoesNotCoverTheNeighbour() {
    // x in [0, H/2]: the east half's western quarter at z2 is column 2 only.
    assertEquals("2-2/1-2", cover(0, -H / 2, H / 2, H / 2, 2));
  }

  @ParameterizedTest
  @CsvSource({
    // a point inside one tile
    "1000, 1000, 1, 1-1/0-0",
    // a point on the vertical edge between two tiles lies in both
    "0, 1000, 1, 0-1/0-0",
    // the origin of z1 is the corner of four tiles
    "0, 0, 1, 0-1/0-1",
  })
  void pointsCoverTheTilesContainingThem(double x, double y, int z, String expected) {
    assertEquals(expected, cover(x, y, x, y, z));
  }

  @Test
  void wholeWorldCoversEveryTile() {
    for (int z = 0; z <= 3; z++) {
      long n = (1L << z) - 1;
      assertEquals("0-" + n + "/0-" + n, cover(-H, -H, H, H, z));
    }
  }

  @Test
  void boxOutsideTheMatrixCoversNothing() {
    assertEquals("none", cover(H + 1, 0, H + 2, 1, 3));
  }

  @Test
  void rangesCountTheirTiles() {
    assertEquals(12, new TileRange(3, 1, 2, 3, 5).count());
    assertTrue(new TileRange(3, 1, 2, 3, 5).contains(TileId.of(3, 3, 5)));
  }
}
