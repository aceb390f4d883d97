package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;
import org.locationtech.jts.operation.union.UnaryUnionOp;

class TileCutterTest {

  private static final TileMatrixSet TMS = TileMatrixSet.webMercatorQuad();
  private static final GeometryFactory GF = new GeometryFactory();

  static Geometry wkt(String wkt) throws Exception {
    return new WKTReader().read(wkt);
  }

  static Map<TileId, Geometry> cut(Geometry g, int z, double buffer) throws Exception {
    return cut(g, z, buffer, TileFilter.ALL);
  }

  static Map<TileId, Geometry> cut(Geometry g, int z, double buffer, TileFilter filter)
      throws Exception {
    Map<TileId, Geometry> out = new TreeMap<>();
    List<Exception> errors = new ArrayList<>();
    new TileCutter(TMS, buffer)
        .cut(
            g,
            z,
            0,
            filter,
            ComponentGate.ALL,
            (tile, piece) -> {
              try {
                out.put(tile, new WKBReader().read(piece.wkb()));
              } catch (Exception e) {
                errors.add(e);
              }
            });
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
    return out;
  }

  static Geometry tileBox(TileId t, double bufferPixels) {
    TileMatrix m = TMS.matrix(t.z());
    Bounds b =
        m.tileBounds(t.x(), t.y())
            .expand(
                bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
                bufferPixels * m.tileSpanY() / m.tileHeightPixels());
    return GF.toGeometry(new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY()));
  }

  /** Asserts each piece is valid and equals the geometry clipped to its buffered tile. */
  static void assertPiecesMatchOverlay(Geometry g, int z, double buffer) throws Exception {
    Map<TileId, Geometry> pieces = cut(g, z, buffer);
    TileMatrix m = TMS.matrix(z);
    for (long x = 0; x < m.matrixWidth(); x++) {
      for (long y = 0; y < m.matrixHeight(); y++) {
        TileId t = TileId.of(z, x, y);
        Geometry expected = OverlayNGRobust.overlay(g, tileBox(t, buffer), 1);
        Geometry piece = pieces.get(t);
        double tolerance = tileBox(t, buffer).getArea() * 1e-12;
        if (piece == null) {
          assertTrue(
              g.getDimension() == 2
                  ? expected.getArea() <= tolerance
                  : expected.getLength() <= 1e-6,
              t + " got nothing, expected " + expected);
          continue;
        }
        assertTrue(piece.isValid(), t + " piece is invalid: " + piece);
        if (g.getDimension() == 2) {
          // Where the geometry only touches the tile, the overlay adds lines: areas only.
          expected =
              GF.buildGeometry(
                  org.locationtech.jts.geom.util.PolygonExtracter.getPolygons(expected));
          double diff = OverlayNGRobust.overlay(piece, expected, 4).getArea();
          assertTrue(diff <= tolerance, t + " differs by area " + diff + ": " + piece);
        } else {
          assertEquals(expected.getLength(), piece.getLength(), 1e-6, t.toString());
        }
      }
    }
  }

  @Test
  void aSquareInsideOneTileComesOutUnchanged() throws Exception {
    Geometry sq = wkt("POLYGON((1000 1000, 2000 1000, 2000 2000, 1000 2000, 1000 1000))");
    Map<TileId, Geometry> pieces = cut(sq, 3, 0);
    assertEquals(1, pieces.size());
    Geometry piece = pieces.values().iterator().next();
    assertTrue(piece.equalsExact(sq.norm()) || piece.norm().equalsExact(sq.norm()));
  }

  @Test
  void tilesWhollyInsideAPolygonGetTheirSquareOnly() throws Exception {
    // A square over most of the world with 10,000 vertices on each side: inner tiles must be 4
    // corners, not 40,000 vertices.
    Coordinate[] ring = new Coordinate[40_001];
    double e = 18_000_000;
    for (int i = 0; i < 10_000; i++) {
      double t = -e + 2 * e * i / 10_000;
      ring[i] = new Coordinate(t, -e);
      ring[10_000 + i] = new Coordinate(e, t);
      ring[20_000 + i] = new Coordinate(-t, e);
      ring[30_000 + i] = new Coordinate(-e, -t);
    }
    ring[40_000] = ring[0];
    Geometry big = GF.createPolygon(ring);
    Map<TileId, Geometry> pieces = cut(big, 4, 0);
    assertEquals(256, pieces.size());
    Geometry inner = pieces.get(TileId.of(4, 7, 7));
    assertEquals(5, inner.getNumPoints());
    assertEquals(1, inner.getArea() / tileBox(TileId.of(4, 7, 7), 0).getArea(), 1e-12);
  }

  @ParameterizedTest
  @CsvSource({"2, 0", "2, 8", "3, 0", "3, 64", "5, 16"})
  void randomPolygonsWithHolesMatchTheOverlayInEveryTile(int z, double buffer) throws Exception {
    SplittableRandom random = new SplittableRandom(z * 31L + (long) buffer);
    for (int k = 0; k < 6; k++) {
      assertPiecesMatchOverlay(randomPolygon(random, z), z, buffer);
    }
  }

  @Test
  void aCombThatLeavesAndReentersATileBecomesSeparateValidParts() throws Exception {
    // Teeth of a comb cross the z1 line x = 0 several times.
    Geometry comb =
        wkt(
            "POLYGON((-5e6 -5e6, 5e6 -5e6, 5e6 -4e6, -1e6 -4e6, -1e6 -3e6, 5e6 -3e6, 5e6 -2e6,"
                + " -1e6 -2e6, -1e6 -1e6, 5e6 -1e6, 5e6 0.5e6, -5e6 0.5e6, -5e6 -5e6))");
    assertPiecesMatchOverlay(comb, 1, 0);
    Geometry east = cut(comb, 1, 0).get(TileId.of(1, 1, 1));
    assertEquals(3, east.getNumGeometries());
  }

  @Test
  void aTileInsideAHoleGetsNothing() throws Exception {
    Geometry donut =
        wkt(
            "POLYGON((-19e6 -19e6, 19e6 -19e6, 19e6 19e6, -19e6 19e6, -19e6 -19e6),"
                + " (-9e6 -9e6, -9e6 9e6, 9e6 9e6, 9e6 -9e6, -9e6 -9e6))");
    Map<TileId, Geometry> pieces = cut(donut, 3, 0);
    // z3 tiles are 5,009 km wide: tiles 3..4 lie wholly in the hole.
    assertTrue(!pieces.containsKey(TileId.of(3, 3, 3)));
    assertTrue(!pieces.containsKey(TileId.of(3, 4, 4)));
    assertPiecesMatchOverlay(donut, 3, 0);
  }

  @Test
  void piecesWithoutBufferJoinBackIntoTheGeometry() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    for (int k = 0; k < 5; k++) {
      Geometry g = randomPolygon(random, 4);
      Geometry union = UnaryUnionOp.union(new ArrayList<>(cut(g, 4, 0).values()));
      // Beyond the matrix there are no tiles: the pieces rebuild the part inside it.
      Geometry world = tileBox(TileId.of(0, 0, 0), 0);
      double diff =
          OverlayNGRobust.overlay(union, OverlayNGRobust.overlay(g, world, 1), 4).getArea();
      assertTrue(diff < g.getArea() * 1e-9, "pieces leave a gap or overlap of " + diff);
    }
  }

  @Test
  void linesAreCutIntoTheirPartsInEachTile() throws Exception {
    Geometry zigzag =
        wkt("LINESTRING(-15e6 -1e6, -5e6 1e6, 5e6 -1e6, 15e6 1e6, 15e6 15e6, -15e6 14e6)");
    assertPiecesMatchOverlay(zigzag, 2, 0);
    assertPiecesMatchOverlay(zigzag, 3, 32);
  }

  @Test
  void aPointOnATileEdgeGoesToBothTiles() throws Exception {
    Map<TileId, Geometry> pieces = cut(wkt("POINT(0 1000)"), 1, 0);
    assertEquals(List.of(TileId.of(1, 0, 0), TileId.of(1, 1, 0)), List.copyOf(pieces.keySet()));
  }

  @Test
  void onlyWantedTilesAreCut() throws Exception {
    Geometry g = randomPolygon(new SplittableRandom(3), 3);
    TileFilter one =
        new TileFilter() {
          @Override
          public boolean wantsColumn(int z, long x) {
            return x == 3;
          }

          @Override
          public boolean wants(int z, long x, long y) {
            return x == 3 && y == 4;
          }
        };
    Map<TileId, Geometry> all = cut(g, 3, 0);
    Map<TileId, Geometry> some = cut(g, 3, 0, one);
    assertEquals(all.containsKey(TileId.of(3, 3, 4)) ? 1 : 0, some.size());
  }

  @Test
  void neighboursShareTheirBorderBitForBit() throws Exception {
    // Two countries sharing a slanted border, each ring walking it the other way.
    Geometry a = wkt("POLYGON((-7e6 -3e6, 3e6 -2e6, 2e6 4e6, -7e6 4e6, -7e6 -3e6))");
    Geometry b = wkt("POLYGON((3e6 -2e6, 9e6 -2e6, 9e6 4e6, 2e6 4e6, 3e6 -2e6))");
    Map<TileId, Geometry> pa = cut(a, 3, 0);
    Map<TileId, Geometry> pb = cut(b, 3, 0);
    for (TileId t : pa.keySet()) {
      if (pb.containsKey(t)) {
        Geometry overlap = OverlayNGRobust.overlay(pa.get(t), pb.get(t), 1);
        assertEquals(0, overlap.getArea(), 1e-6, t.toString());
      }
    }
  }

  @Test
  void cuttingTwiceGivesTheSameBytes() throws Exception {
    Geometry g = randomPolygon(new SplittableRandom(11), 3);
    List<byte[]> first = new ArrayList<>();
    List<byte[]> second = new ArrayList<>();
    TileCutter cutter = new TileCutter(TMS, 8);
    cutter.cut(g, 3, 0, TileFilter.ALL, ComponentGate.ALL, (t, p) -> first.add(p.wkb()));
    cutter.cut(g, 3, 0, TileFilter.ALL, ComponentGate.ALL, (t, p) -> second.add(p.wkb()));
    assertEquals(first.size(), second.size());
    for (int i = 0; i < first.size(); i++) {
      assertArrayEquals(first.get(i), second.get(i));
    }
  }

  @ParameterizedTest
  @CsvSource({"2, 0", "3, 0", "3, 8"})
  void verticesAndEdgesOnTileLinesAreCutExactly(int z, double buffer) throws Exception {
    // Polygons drawn on a grid a quarter tile wide: many vertices lie on tile lines and many
    // edges run along them.
    TileMatrix m = TMS.matrix(z);
    double step = m.tileSpanX() / 4;
    SplittableRandom random = new SplittableRandom(z * 7L + (long) buffer);
    for (int k = 0; k < 20; k++) {
      int n = 4 + random.nextInt(12);
      Geometry g = GF.createPolygon();
      for (int i = 0; i < n; i++) {
        double x = m.originX() + step * random.nextInt(4 * (int) m.matrixWidth());
        double y = m.originY() - step * random.nextInt(4 * (int) m.matrixHeight());
        double w = step * (1 + random.nextInt(8));
        double h = step * (1 + random.nextInt(8));
        g = OverlayNGRobust.overlay(g, GF.toGeometry(new Envelope(x, x + w, y - h, y)), 2);
      }
      assertPiecesMatchOverlay(g, z, buffer);
    }
  }

  @Test
  void anInvalidBowtieIsCutWithoutFailing() throws Exception {
    Geometry bowtie = wkt("POLYGON((-9e6 -9e6, 9e6 9e6, 9e6 -9e6, -9e6 9e6, -9e6 -9e6))");
    Map<TileId, Geometry> pieces = cut(bowtie, 2, 0);
    assertTrue(!pieces.isEmpty());
  }

  /** A star-shaped polygon around a random centre, with a star-shaped hole, in Web Mercator. */
  static Geometry randomPolygon(SplittableRandom random, int z) {
    double world = 20_037_508.342789244;
    double cx = (random.nextDouble() - 0.5) * world;
    double cy = (random.nextDouble() - 0.5) * world;
    double r = world * (0.2 + random.nextDouble() * 0.5);
    LinearRing shell = star(random, cx, cy, r, 200 + random.nextInt(300), false);
    LinearRing hole = star(random, cx, cy, r * 0.3, 50, true);
    return GF.createPolygon(shell, new LinearRing[] {hole});
  }

  private static LinearRing star(
      SplittableRandom random, double cx, double cy, double r, int n, boolean clockwise) {
    Coordinate[] c = new Coordinate[n + 1];
    for (int i = 0; i < n; i++) {
      double a = 2 * Math.PI * i / n * (clockwise ? -1 : 1);
      double d = r * (0.55 + 0.45 * random.nextDouble());
      c[i] = new Coordinate(cx + d * Math.cos(a), cy + d * Math.sin(a));
    }
    c[n] = c[0];
    return GF.createLinearRing(c);
  }
}
