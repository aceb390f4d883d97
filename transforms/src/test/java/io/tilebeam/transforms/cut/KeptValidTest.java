package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.operation.valid.IsValidOp;

/**
 * The cutter marks a piece of the real fixture countries as valid once rounded ({@link
 * GridPiece#keptValid}) only when it is, by JTS's own check, and marks most of them; pieces it
 * simplified are never marked.
 */
class KeptValidTest {

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");
  private static final GeometryFactory GF = new GeometryFactory();

  @ParameterizedTest
  @CsvSource({"0, 6, 3", "0, 6, 0", "7, 8, 3"})
  void markedPiecesOfRealCountriesAreValidRounded(int minZoom, int maxZoom, int digits)
      throws Exception {
    FeatureCutter cutter =
        new FeatureCutter(new CutSpec(WGS84, WEB, minZoom, maxZoom, 8, 0, digits));
    long[] counts = new long[3];
    for (Feature f : CountryFixture.features()) {
      cutter.cut(
          f,
          TileFilter.ALL,
          (tile, p) -> {
            counts[0]++;
            Geometry g = GridPiece.read(p.wkb(), GF);
            if (GridPiece.keptValid(p.wkb())) {
              counts[1]++;
              assertEquals(
                  null,
                  new IsValidOp(g).getValidationError(),
                  f.id() + " at " + tile + " marked valid");
            } else if (!g.isValid()) {
              counts[2]++;
            }
          });
    }
    assertTrue(counts[1] * 10 > counts[0] * 8, counts[1] + " of " + counts[0] + " marked");
    if (digits == 0) {
      // A grid of metres folds small islands: the marking was put to the test.
      assertTrue(counts[2] > 0, "pieces the grid broke: " + counts[2]);
    }
  }

  @ParameterizedTest
  @CsvSource({"0, 3"})
  void simplifiedPiecesAreNeverMarked(int minZoom, int maxZoom) throws Exception {
    FeatureCutter cutter = new FeatureCutter(new CutSpec(WGS84, WEB, minZoom, maxZoom, 8, 0.5, 3));
    for (Feature f : CountryFixture.features()) {
      cutter.cut(
          f,
          TileFilter.ALL,
          (tile, p) -> assertFalse(GridPiece.keptValid(p.wkb()), f.id() + " at " + tile));
    }
  }
}
