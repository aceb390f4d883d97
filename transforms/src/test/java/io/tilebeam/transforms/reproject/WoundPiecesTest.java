package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.GridPiece;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.repair.GeometryRepair;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;

/**
 * A vector tile layer cuts its sources as their rings wind, without making them valid first ({@link
 * CutSpec#woundPieces()}): every tile's piece, once rendered on the tile's grid, is valid, and the
 * pieces of a feature at a zoom join up into the area where its rings wind at least once (a shell
 * counted +1 inside, a hole −1, each turned the way its signed area says). Shapes in Web Mercator
 * metres (units of a million below) cut at zoom 1 across its four tiles, whose grid unit is about
 * 4.9 km.
 */
class WoundPiecesTest {

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private static final CrsRef MERCATOR = CrsRef.of("EPSG:3857");
  private static final RenderSpec RENDER = new RenderSpec(WEB, MERCATOR, 3, 4096);
  private static final GeometryFactory F = new GeometryFactory();

  /** How far a rendered area may be from the expected one: rounding moves an edge < 1 unit. */
  private static final double SLACK = 0.2e12;

  private static CutSpec spec(boolean wound) {
    return new CutSpec(MERCATOR, WEB, 1, 1, 0, 0, RENDER.cutterGridDigits(), 0, wound);
  }

  /** The WKT with every number in millions of metres. */
  private static Geometry millions(String wkt) throws Exception {
    Geometry g = new WKTReader().read(wkt);
    g.apply(
        (Coordinate c) -> {
          c.x *= 1e6;
          c.y *= 1e6;
        });
    g.geometryChanged();
    return g;
  }

  /** Cuts and renders the shape; returns its rendered pieces at zoom 1, each checked valid. */
  private static List<Geometry> rendered(String wkt) throws Exception {
    Feature f = new Feature("f", new WKBWriter(2).write(millions(wkt)), "{}");
    Map<TileId, List<FeaturePiece>> byTile = new TreeMap<>();
    FeatureCutter.Cut cut =
        new FeatureCutter(spec(true))
            .cut(
                f,
                TileFilter.ALL,
                (t, p) -> byTile.computeIfAbsent(t, k -> new ArrayList<>()).add(p));
    assertEquals(GeometryRepair.Rung.WOUND, cut.repair());
    TileRenderer renderer = new TileRenderer(RENDER);
    List<Geometry> out = new ArrayList<>();
    for (Map.Entry<TileId, List<FeaturePiece>> e : byTile.entrySet()) {
      for (FeaturePiece p : e.getValue()) {
        assertTrue(GridPiece.wound(p.wkb()), "a wound piece is marked so");
      }
      RenderedTile t = renderer.render(TileRendererTest.tile(e.getKey(), e.getValue()));
      assertTrue(t.deadLetters().isEmpty(), () -> e.getKey() + ": " + t.deadLetters());
      for (RenderedFeature rf : t.features()) {
        Geometry g = new WKBReader().read(rf.wkb());
        assertTrue(g.isValid(), () -> e.getKey() + " is not valid: " + g);
        out.add(g);
      }
    }
    return out;
  }

  private static Geometry joined(List<Geometry> pieces) {
    return OverlayNGRobust.union(F.buildGeometry(pieces));
  }

  private static double sum(List<Geometry> pieces) {
    return pieces.stream().mapToDouble(Geometry::getArea).sum();
  }

  private static boolean covers(Geometry g, double x, double y) {
    return g.covers(F.createPoint(new Coordinate(x * 1e6, y * 1e6)));
  }

  @Test
  void aBowTieKeepsTheLobeItsSignedAreaCounts() throws Exception {
    // Left lobe 18, right lobe 2 (its ring turns the other way): the ring, a shell, is turned so
    // its signed area is positive, and the left lobe alone winds +1.
    List<Geometry> pieces = rendered("POLYGON((-5 -2.5, -5 3.5, 3 -0.5, 3 1.5, -5 -2.5))");
    Geometry all = joined(pieces);
    assertEquals(18e12, all.getArea(), SLACK);
    assertEquals(all.getArea(), sum(pieces), SLACK, "pieces overlap");
    assertTrue(covers(all, -3, 0.5));
    assertFalse(covers(all, 2.5, 0.5));
  }

  @Test
  void overlappingPartsAreUnited() throws Exception {
    List<Geometry> pieces =
        rendered(
            "MULTIPOLYGON(((-4 -4, 2 -4, 2 2, -4 2, -4 -4)), ((-2 -2, 4 -2, 4 4, -2 4, -2 -2)))");
    Geometry all = joined(pieces);
    assertEquals(36e12 + 36e12 - 16e12, all.getArea(), SLACK);
    assertEquals(all.getArea(), sum(pieces), SLACK, "pieces overlap");
    assertEquals(1, all.getNumGeometries());
  }

  @Test
  void aHoleOutsideItsShellTakesNothingAwayAndOneInsideDoes() throws Exception {
    Geometry all =
        joined(
            rendered(
                "POLYGON((-3 -3, 3 -3, 3 3, -3 3, -3 -3), (5 -1, 7 -1, 7 1, 5 1, 5 -1),"
                    + " (-1.5 -1, 0.5 -1, 0.5 1, -1.5 1, -1.5 -1))"));
    assertEquals(36e12 - 4e12, all.getArea(), SLACK);
    assertFalse(covers(all, -0.5, 0));
    assertFalse(covers(all, 6, 0));
  }

  @Test
  void aShellInsideAnotherAddsNothing() throws Exception {
    Geometry all =
        joined(
            rendered(
                "MULTIPOLYGON(((-3 -3, 3 -3, 3 3, -3 3, -3 -3)), ((-1 -1, 1 -1, 1 1, -1 1, -1 -1)))"));
    assertEquals(36e12, all.getArea(), SLACK);
    assertEquals(1, all.getNumGeometries());
  }

  @Test
  void aRingTouchingItselfAcrossTilesComesOutValidAndWhole() throws Exception {
    // A figure eight pinched at (0.5, 0.5), both loops turning the same way, spanning all four
    // tiles: invalid as a source, cut without a repair.
    List<Geometry> pieces =
        rendered("POLYGON((-3 -3, 0.5 -3, 0.5 0.5, 4 0.5, 4 4, 0.5 4, 0.5 0.5, -3 0.5, -3 -3))");
    Geometry all = joined(pieces);
    assertEquals(3.5 * 3.5 * 2 * 1e12, all.getArea(), SLACK);
    assertEquals(all.getArea(), sum(pieces), SLACK, "pieces overlap");
  }

  @Test
  void withoutWoundPiecesTheSourceIsRepairedFirst() throws Exception {
    Feature f =
        new Feature(
            "f",
            new WKBWriter(2).write(millions("POLYGON((-5 -2.5, -5 3.5, 3 -0.5, 3 1.5, -5 -2.5))")),
            "{}");
    List<FeaturePiece> pieces = new ArrayList<>();
    FeatureCutter.Cut cut =
        new FeatureCutter(spec(false)).cut(f, TileFilter.ALL, (t, p) -> pieces.add(p));
    assertNotEquals(GeometryRepair.Rung.WOUND, cut.repair());
    assertTrue(cut.repair().repaired());
    assertFalse(pieces.isEmpty());
    pieces.forEach(p -> assertFalse(GridPiece.wound(p.wkb())));
  }
}
