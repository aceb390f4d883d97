package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.WkbBytes;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;

/**
 * Pieces rounded at the cutter ({@link GridPiece}) read back as exactly the geometry the renderer
 * would have made by rounding the full-precision piece, and take far fewer bytes.
 */
class GridPieceTest {

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");
  private static final GeometryFactory GF = new GeometryFactory();

  @ParameterizedTest
  @CsvSource({"0, 3", "3, 3", "6, 2", "8, 0"})
  void gridPiecesAreTheRoundedPiecesOfRealCountries(int z, int digits) throws Exception {
    Map<String, byte[]> full = cut(z, -1);
    Map<String, byte[]> grid = cut(z, digits);
    assertEquals(full.keySet(), grid.keySet());
    long fullBytes = 0;
    long gridBytes = 0;
    double scale = Math.pow(10, digits);
    for (Map.Entry<String, byte[]> e : full.entrySet()) {
      byte[] g = grid.get(e.getKey());
      assertTrue(GridPiece.isGrid(g), e.getKey());
      Geometry expected = GridRounding.rounded(new WKBReader(GF).read(e.getValue()), scale);
      Geometry actual = GridPiece.read(g, GF);
      assertEquals(expected.getGeometryType(), actual.getGeometryType(), e.getKey());
      assertTrue(expected.equalsExact(actual, 0), e.getKey());
      fullBytes += e.getValue().length;
      gridBytes += g.length;
    }
    assertTrue(gridBytes * 2 < fullBytes, gridBytes + " bytes against " + fullBytes);
  }

  @ParameterizedTest
  @CsvSource({"0, 3", "5, 3", "8, 0"})
  void transcodedWkbIsWhatJtsWritesForTheReadGeometry(int z, int digits) throws Exception {
    WKBWriter writer = new WKBWriter(2);
    for (Map.Entry<String, byte[]> e : cut(z, digits).entrySet()) {
      Geometry g = GridPiece.read(e.getValue(), GF);
      GridPiece.Transcoded t = GridPiece.toWkb(e.getValue());
      assertArrayEquals(WkbBytes.of(writer, g), t.wkb(), e.getKey());
      assertEquals(g.getNumPoints(), t.points(), e.getKey());
    }
    TilePiece mixed = new TilePiece();
    mixed.addPoint(1.23456, -7.5);
    mixed.addLine(new double[] {0, 0, 1.0004, 2.0006});
    mixed.addPoint(3, 4);
    byte[] encoded = mixed.encoded(3, false);
    assertArrayEquals(
        WkbBytes.of(writer, GridPiece.read(encoded, GF)), GridPiece.toWkb(encoded).wkb());
  }

  @Test
  void damagedBytesAreRefusedWithTheReason() throws Exception {
    byte[] g = cut(0, 3).values().iterator().next();
    IllegalArgumentException truncated =
        assertThrows(
            IllegalArgumentException.class,
            () -> GridPiece.read(Arrays.copyOf(g, g.length - 1), GF));
    assertEquals("grid piece is truncated", truncated.getMessage());
    byte[] longer = Arrays.copyOf(g, g.length + 1);
    assertThrows(IllegalArgumentException.class, () -> GridPiece.read(longer, GF));
    IllegalArgumentException cut =
        assertThrows(
            IllegalArgumentException.class, () -> GridPiece.toWkb(Arrays.copyOf(g, g.length - 1)));
    assertEquals("grid piece is truncated", cut.getMessage());
    assertThrows(IllegalArgumentException.class, () -> GridPiece.toWkb(longer));
    assertFalse(GridPiece.isGrid(new byte[] {1, 3, 0, 0, 0}));
  }

  @Test
  void coordinatesBeyondExactGridStepsStayInWkb() {
    TilePiece piece = new TilePiece();
    piece.addPoint(1e300, 2);
    byte[] encoded = piece.encoded(3, false);
    assertFalse(GridPiece.isGrid(encoded));
    assertArrayEquals(piece.wkb(), encoded);
  }

  /** Every piece of the fixture at zoom {@code z}, by feature and tile. */
  private static Map<String, byte[]> cut(int z, int digits) throws Exception {
    FeatureCutter cutter = new FeatureCutter(new CutSpec(WGS84, WEB, z, z, 8, 0, digits));
    Map<String, byte[]> out = new TreeMap<>();
    List<Feature> countries = CountryFixture.features();
    for (Feature f : countries) {
      cutter.cut(
          f, TileFilter.ALL, (TileId t, FeaturePiece p) -> out.put(f.id() + "@" + t, p.wkb()));
    }
    return out;
  }
}
