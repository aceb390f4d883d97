package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CoordinateTransformer;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * The search-box rule: where the source CRS maps boxes to boxes ({@link
 * FeatureTiles#boxPreserving}), every tile a geometry reaches into lies in its search boxes, so the
 * rule need not be asked; where it does not (UTM in Web Mercator), the pair is not taken for one.
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

  /** Every tile the cut reaches is one whose search boxes the source envelope meets. */
  private static void checkBoxPreserving(CrsRef crs, TileMatrixSet tms, double[] area, int maxZoom)
      throws Exception {
    assertTrue(FeatureTiles.boxPreserving(crs, tms));
    CoordinateTransformer toTms =
        new CoordinateTransformer(CrsTransforms.operation(crs, tms.crs()).getMathTransform());
    TileCutter cutter = new TileCutter(tms, 8);
    Random r = new Random(42);
    for (int i = 0; i < 150; i++) {
      Geometry g = randomPolygon(r, area[0], area[2], area[1], area[3]);
      Envelope e = g.getEnvelopeInternal();
      Geometry inTms = toTms.apply(g);
      for (int z = 0; z <= maxZoom; z++) {
        cutter.cut(
            inTms,
            z,
            0,
            TileFilter.ALL,
            ComponentGate.ALL,
            (tile, piece) ->
                assertTrue(
                    FeatureTiles.meetsSearchBoxes(e, tile, crs, tms, 8),
                    g + " reaches " + tile + " but is outside its search boxes"));
      }
    }
  }

  @Test
  void geographicSourceInWebMercatorTiles() throws Exception {
    checkBoxPreserving(
        CrsRef.of("EPSG:4326"),
        TileMatrixSet.webMercatorQuad(),
        new double[] {-180, -80, 180, 80},
        7);
  }

  @Test
  void geographicSourceInWorldCrs84Tiles() throws Exception {
    checkBoxPreserving(
        CrsRef.of("OGC:CRS84"),
        TileMatrixSet.worldCrs84Quad(),
        new double[] {-180, -90, 180, 90},
        6);
  }

  @Test
  void projectedSourceInWebMercatorTilesIsAskedTheRule() {
    // UTM 33N to Web Mercator does not map boxes to boxes.
    assertFalse(
        FeatureTiles.boxPreserving(CrsRef.of("EPSG:32633"), TileMatrixSet.webMercatorQuad()));
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
