package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * The placement rule asked two ways gives one answer: {@link FeatureTiles#covers} for one tile is
 * {@link FeatureTiles#of} restricted to it, and every feature the rule puts in a tile lies in one
 * of the tile's {@link FeatureTiles#searchBoxes}. A per-tile read of an indexed source then keeps
 * the same features as the one pass over a file.
 */
class FeatureTilesTest {

  private static final GeometryFactory F = new GeometryFactory();

  private static Geometry randomPolygon(
      Random r, double minX, double maxX, double minY, double maxY) {
    double w = Math.pow(10, r.nextDouble() * 3 - 2) * (maxX - minX) / 100;
    double h = Math.pow(10, r.nextDouble() * 3 - 2) * (maxY - minY) / 100;
    double x = minX + r.nextDouble() * (maxX - minX - w);
    double y = minY + r.nextDouble() * (maxY - minY - h);
    return F.createPolygon(
        new Coordinate[] {
          new Coordinate(x, y),
          new Coordinate(x + w, y),
          new Coordinate(x + w * 0.3, y + h),
          new Coordinate(x, y)
        });
  }

  private static void checkAgreement(CrsRef crs, TileMatrixSet tms, double[] area, int maxZoom)
      throws Exception {
    Random r = new Random(42);
    for (int i = 0; i < 150; i++) {
      Geometry g = randomPolygon(r, area[0], area[2], area[1], area[3]);
      Set<TileId> tiles = FeatureTiles.of(g, crs, tms, 0, maxZoom, 8);
      for (TileId t : tiles) {
        assertTrue(FeatureTiles.covers(g, crs, tms, t, 8), g + " " + t);
        boolean found = false;
        Envelope e = g.getEnvelopeInternal();
        for (Bounds b : FeatureTiles.searchBoxes(t, crs, tms, 8)) {
          found |= e.intersects(new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY()));
        }
        assertTrue(found, g + " is in " + t + " but outside its search boxes");
      }
      // Tiles next to the cover are not covered.
      for (TileId t : tiles) {
        for (int dx = -1; dx <= 1; dx++) {
          TileMatrix m = tms.matrix(t.z());
          if (t.x() + dx >= 0 && t.x() + dx < m.matrixWidth() && t.y() + 1 < m.matrixHeight()) {
            TileId n = new TileId(t.z(), t.x() + dx, t.y() + 1);
            assertEquals(tiles.contains(n), FeatureTiles.covers(g, crs, tms, n, 8), g + " " + n);
          }
        }
      }
    }
  }

  @Test
  void geographicSourceInWebMercatorTiles() throws Exception {
    checkAgreement(
        CrsRef.of("EPSG:4326"),
        TileMatrixSet.webMercatorQuad(),
        new double[] {-180, -80, 180, 80},
        7);
  }

  @Test
  void projectedSourceInWebMercatorTiles() throws Exception {
    // UTM 33N to Web Mercator does not map boxes to boxes: the search boxes must still hold.
    checkAgreement(
        CrsRef.of("EPSG:32633"),
        TileMatrixSet.webMercatorQuad(),
        new double[] {200_000, 4_000_000, 800_000, 7_000_000},
        8);
  }

  @Test
  void geographicSourceInWorldCrs84Tiles() throws Exception {
    checkAgreement(
        CrsRef.of("OGC:CRS84"),
        TileMatrixSet.worldCrs84Quad(),
        new double[] {-180, -90, 180, 90},
        6);
  }

  @Test
  void aTileAtTheAntimeridianSearchesBothSides() throws Exception {
    List<Bounds> boxes =
        FeatureTiles.searchBoxes(
            new TileId(2, 0, 1), CrsRef.of("EPSG:4326"), TileMatrixSet.webMercatorQuad(), 8);
    assertEquals(2, boxes.size(), boxes.toString());
    assertEquals(-180, boxes.get(0).minX(), 1e-9);
    assertEquals(180, boxes.get(1).maxX(), 1e-9);
    assertTrue(boxes.get(1).minX() > 177 && boxes.get(1).minX() < 180, boxes.toString());
  }
}
