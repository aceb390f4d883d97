package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TileMatrixSetJsonTest {

  static String resource(String name) throws IOException {
    try (InputStream in = TileMatrixSetJsonTest.class.getResourceAsStream("/tms/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<TileId> tiles(TileMatrixSet tms, Extent e, int minZ, int maxZ) {
    List<TileId> out = new ArrayList<>();
    new LayerTiling("t", tms, List.of(e), minZ, maxZ).cover().forEachTile(out::add);
    return out;
  }

  @Test
  void northingFirstOriginIsSwappedToEastNorth() throws IOException {
    TileMatrixSet laea = TileMatrixSetJson.parse(resource("laea-europe.json"));
    assertEquals("LAEAEurope1024km", laea.id());
    assertTrue(laea.identity().matches("LAEAEurope1024km@[0-9a-f]{16}"), laea.identity());
    assertEquals("EPSG:3035", laea.crs().identity());
    TileMatrix z0 = laea.matrix(0);
    assertEquals(2_000_000, z0.originX());
    assertEquals(5_500_000, z0.originY());
    assertEquals(1_024_000, z0.tileSpanX());
  }

  @Test
  void aGeographicPointLandsInItsTile() throws IOException {
    TileMatrixSet laea = TileMatrixSetJson.parse(resource("laea-europe.json"));
    // Paris, 2.35°E 48.85°N, is E 3760537 N 2888771 in EPSG:3035 (GDAL's gdaltransform):
    // column (3760537 - 2000000) / 1024000 = 1.7, row (5500000 - 2888771) / 1024000 = 2.5.
    assertEquals(
        List.of(TileId.of(0, 1, 2), TileId.of(1, 3, 5)),
        tiles(laea, new Extent(2.35, 48.85, 2.35, 48.85, CrsRef.of("EPSG:4326")), 0, 1));
  }

  @Test
  void anExtentInTheSetsOwnCrsCoversExactlyItsTile() throws IOException {
    TileMatrixSet laea = TileMatrixSetJson.parse(resource("laea-europe.json"));
    Bounds b = laea.matrix(1).tileBounds(4, 7);
    assertEquals(
        List.of(TileId.of(1, 4, 7)),
        tiles(
            laea,
            new Extent(b.minX(), b.minY(), b.maxX(), b.maxY(), CrsRef.of("EPSG:3035")),
            1,
            1));
  }

  @Test
  void bottomLeftOriginCountsRowsUpwards() throws IOException {
    TileMatrixSet utm = TileMatrixSetJson.parse(resource("utm33-bottom-left.json"));
    // 15°E 60°N is E 500000 N 6651411 in UTM 33N (gdaltransform): row 6 from the bottom at z0.
    assertEquals(
        List.of(TileId.of(0, 0, 6), TileId.of(1, 0, 13), TileId.of(1, 1, 13)),
        tiles(utm, new Extent(15, 60, 15, 60, CrsRef.of("EPSG:4326")), 0, 1));
    Bounds row0 = utm.matrix(0).tileBounds(0, 0);
    assertEquals(0, row0.minY());
    assertEquals(1_000_000, row0.maxY());
  }

  @Test
  void aChangedDefinitionChangesTheIdentity() throws IOException {
    String json = resource("laea-europe.json");
    assertNotEquals(
        TileMatrixSetJson.parse(json).identity(),
        TileMatrixSetJson.parse(json.replace("\"cellSize\": 2000", "\"cellSize\": 2001"))
            .identity());
  }

  @Test
  void errorsNameTheMember() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TileMatrixSetJson.parse(
                    "{\"id\":\"x\",\"crs\":\"EPSG:3857\",\"tileMatrices\":[{\"cellSize\":-1}]}"));
    assertTrue(e.getMessage().contains("tileMatrices[0].cellSize"), e.getMessage());
  }
}
