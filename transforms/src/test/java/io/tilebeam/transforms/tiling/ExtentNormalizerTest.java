package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
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

  private static String tiles(double w, double s, double e, double n, int z) {
    List<String> out = new java.util.ArrayList<>();
    new LayerTiling("t", WM, List.of(new Extent(w, s, e, n, WGS84)), z, z)
        .cover()
        .forEachTile(t -> out.add(t.x() + "/" + t.y()));
    return String.join(" ", out);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // a box exactly on the edges of z1 tile 1/0 (east half, north half) covers that tile only
        "0|0|180|85.0511287798066|1|1/0",
        // a box touching +180 at z2 stays in the last column, one touching -180 in the first
        "179|1|180|10|2|3/1",
        "-180|1|-179|10|2|0/1",
        // crossing the antimeridian: the last and the first columns
        "179|1|-179|10|2|0/1 3/1",
        // the equator is a row edge: a box from it northwards is in the northern row only
        "10|0|20|10|2|2/1",
        // beyond the south pole is clamped to the band: the bottom row
        "-10|-90|10|-80|2|1/3 2/3",
        // wholly beyond the band: nothing to tile
        "-10|86|10|90|2|''",
        // touching the band's edge from outside: nothing either
        "-10|85.0511287798066|10|90|2|''",
        // a point on the corner of four tiles lies in all four
        "0|0|0|0|1|0/0 1/0 0/1 1/1",
        // a point inside one tile
        "10|50|10|50|4|8/5",
        // a tiny box well inside one deep tile (slippy-map formula: x 2161.79, y 1389.12)
        "10.001|50.001|10.0010001|50.0010001|12|2161/1389",
      })
  void edgeCasesCoverFixedTiles(double w, double s, double e, double n, int z, String expected) {
    assertEquals(expected, tiles(w, s, e, n, z));
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

  /** A latitude past a pole is a typo, refused as a longitude past ±180 is; ±90 is clamped. */
  @ParameterizedTest
  @CsvSource({
    "-10, -95, 10, 10, south -95.0 outside [-90.0, 90.0]",
    "-10, 0, 10, 90.5, north 90.5 outside [-90.0, 90.0]"
  })
  void latitudeOutOfRangeIsAnError(double w, double s, double e, double n, String message) {
    InvalidExtentException x =
        assertThrows(
            InvalidExtentException.class,
            () -> ExtentNormalizer.split(new Extent(w, s, e, n, WGS84)));
    assertTrue(x.getMessage().contains(message), x.getMessage());
  }

  @ParameterizedTest
  @CsvSource({
    // swapped by mistake, most likely: the crossing box is 340 degrees wide
    "10, -10, 340",
    // a real crossing, 20 degrees wide
    "170, -170, 20",
    // no crossing
    "-10, 10, 0"
  })
  void theWidthOfACrossingBoxIsKnown(double w, double e, double width) {
    assertEquals(width, ExtentNormalizer.crossingWidth(new Extent(w, 0, e, 10, WGS84)));
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
