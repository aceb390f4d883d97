package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExtentNormalizerTest {

  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");
  private static final TileMatrixSet WM = TileMatrixSet.webMercatorQuad();

  private static long count(double w, double s, double e, double n, int minZ, int maxZ) {
    return new LayerTiling("t", WM, List.of(new Extent(w, s, e, n, WGS84)), minZ, maxZ)
        .cover()
        .count();
  }

  @Test
  void antimeridianCrossingBoxIsSplitFirst() {
    List<Bounds> parts = ExtentNormalizer.split(new Extent(170, -20, -170, -10, WGS84));
    assertEquals(2, parts.size());
    assertEquals(new Bounds(170, -20, 180, -10), parts.get(0));
    assertEquals(new Bounds(-180, -20, -170, -10), parts.get(1));
  }

  @ParameterizedTest
  @CsvSource({
    // whole world z0-3: 1 + 4 + 16 + 64
    "-180, -85, 180, 85, 0, 3, 85",
    // beyond the poles is clamped, not an error
    "-180, -90, 180, 90, 0, 3, 85",
    // crossing the antimeridian at z2: columns 3 and 0 only, rows of [-20,-10]
    "170, -20, -170, -10, 2, 2, 2",
    // a tiny box well inside one z5 tile
    "10.01, 50.01, 10.02, 50.02, 5, 5, 1",
    // a point covers the tile that contains it
    "10, 50, 10, 50, 4, 4, 1",
  })
  void coversHaveFixedSizes(double w, double s, double e, double n, int a, int b, long tiles) {
    assertEquals(tiles, count(w, s, e, n, a, b));
  }

  @Test
  void southAboveNorthIsAnErrorNamingTheValues() {
    InvalidExtentException e =
        assertThrows(
            InvalidExtentException.class,
            () -> ExtentNormalizer.split(new Extent(0, 10, 5, 5, WGS84)));
    assertTrue(e.getMessage().contains("south 10.0 > north 5.0"), e.getMessage());
  }

  @Test
  void longitudeOutOfRangeIsAnError() {
    InvalidExtentException e =
        assertThrows(
            InvalidExtentException.class,
            () -> ExtentNormalizer.split(new Extent(-200, 0, 5, 5, WGS84)));
    assertTrue(e.getMessage().contains("west -200.0 outside [-180.0, 180.0]"), e.getMessage());
  }

  @Test
  void overlappingExtentsYieldEachTileOnce() {
    LayerCover cover =
        new LayerTiling(
                "t",
                WM,
                List.of(
                    new Extent(170, -25, -165, 72, WGS84), new Extent(175, -20, -175, -10, WGS84)),
                2,
                5)
            .cover();
    java.util.Set<TileId> seen = new java.util.HashSet<>();
    cover.forEachTile(t -> assertTrue(seen.add(t), "twice: " + t));
    assertEquals(seen.size(), cover.count());
    assertTrue(cover.duplicates() > 0);
  }
}
