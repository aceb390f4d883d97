package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CountryFixture;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.GridRounding;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;

/** The scalable validity check agrees with JTS's {@code IsValidOp} on every rule it checks. */
class PolygonValidityTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "square | POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))",
        "hole | POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 2, 1 1))",
        "hole touching the shell once | POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (0 2, 2 1, 2 3, 0 2))",
        "hole touching the shell twice | POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (0 2, 4 2, 2 3, 0 2))",
        "holes touching in a cycle | POLYGON ((0 0, 6 0, 6 6, 0 6, 0 0), (1 1, 3 1, 2 3, 1 1),"
            + " (3 1, 5 1, 4 3, 3 1), (2 3, 4 3, 3 5, 2 3))",
        "holes touching at one point | POLYGON ((0 0, 6 0, 6 6, 0 6, 0 0), (1 1, 3 1, 2 3, 1 1),"
            + " (3 1, 5 1, 4 3, 3 1))",
        "self-crossing bow tie | POLYGON ((0 0, 4 4, 4 0, 0 4, 0 0))",
        "ring touching itself | POLYGON ((0 0, 4 0, 2 2, 4 4, 0 4, 2 2, 0 0))",
        "fold-back spike | POLYGON ((0 0, 4 0, 4 4, 2 4, 2 6, 2 4, 0 4, 0 0))",
        "fold-back at the first vertex | POLYGON ((2 0, 4 0, 4 4, 0 4, 0 0, 3 0, 2 0))",
        "hole outside the shell | POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (5 5, 6 5, 6 6, 5 5))",
        "hole inside a hole | POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0), (1 1, 8 1, 8 8, 1 8, 1 1),"
            + " (2 2, 3 2, 3 3, 2 2))",
        "hole on a hole's edge | POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0), (1 1, 4 1, 4 4, 1 1),"
            + " (4 1, 6 1, 6 3, 4 1))",
        "islands apart | MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((2 2, 3 2, 3 3, 2 2)))",
        "islands touching at a point | MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((1 1, 2 1, 2 2, 1 1)))",
        "islands sharing an edge | MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)),"
            + " ((1 0, 2 0, 2 1, 1 1, 1 0)))",
        "islands crossing | MULTIPOLYGON (((0 0, 2 0, 2 2, 0 2, 0 0)), ((1 1, 3 1, 3 3, 1 3, 1 1)))",
        "island inside another | MULTIPOLYGON (((0 0, 9 0, 9 9, 0 9, 0 0)), ((2 2, 3 2, 3 3, 2 2)))",
        "island in a lake | MULTIPOLYGON (((0 0, 9 0, 9 9, 0 9, 0 0), (1 1, 8 1, 8 8, 1 8, 1 1)),"
            + " ((2 2, 3 2, 3 3, 2 2)))",
        "equal islands | MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((0 0, 1 0, 1 1, 0 0)))",
        "collinear overlap of two rings | POLYGON ((0 0, 9 0, 9 9, 0 9, 0 0), (0 1, 0 2, 1 1, 0 1))",
      })
  void agreesWithJts(String name, String wkt) throws Exception {
    Geometry g = new WKTReader().read(wkt);
    assertEquals(g.isValid(), PolygonValidity.check(g).valid(), name);
  }

  @Test
  void agreesWithJtsOnEveryRoundedPieceOfRealCountries() throws Exception {
    List<Geometry> pieces = new ArrayList<>();
    for (int z : new int[] {1, 3, 5, 7}) {
      FeatureCutter cutter =
          new FeatureCutter(
              new CutSpec(CrsRef.of("EPSG:4326"), TileMatrixSet.webMercatorQuad(), z, z, 8, 0));
      for (Feature f : CountryFixture.features()) {
        cutter.cut(
            f,
            TileFilter.ALL,
            (tile, piece) -> {
              try {
                pieces.add(new WKBReader().read(piece.wkb()));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
      }
    }
    int invalid = 0;
    // Also rounded to coarse grids (ten and a hundred metres) so that some pieces fold.
    for (Geometry piece : pieces) {
      for (Geometry g :
          List.of(piece, GridRounding.rounded(piece, 1e-1), GridRounding.rounded(piece, 1e-2))) {
        boolean jts = g.isValid();
        assertEquals(jts, PolygonValidity.check(g).valid(), g.toText().substring(0, 60));
        invalid += jts ? 0 : 1;
      }
    }
    assertTrue(
        pieces.size() > 40 && invalid > 10 && invalid < 3 * pieces.size() - 40,
        pieces.size() + " pieces, invalid " + invalid);
  }
}
