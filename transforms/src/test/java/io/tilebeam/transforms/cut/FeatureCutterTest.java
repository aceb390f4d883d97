package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

class FeatureCutterTest {

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();

  private static Feature feature(String id, String wkt) throws Exception {
    return new Feature(id, new WKBWriter(2).write(new WKTReader().read(wkt)), "{\"n\":1}");
  }

  private static Map<TileId, FeaturePiece> cut(CutSpec spec, Feature f, TileFilter filter)
      throws TileDataException {
    Map<TileId, FeaturePiece> out = new TreeMap<>();
    new FeatureCutter(spec).cut(f, filter, out::put);
    return out;
  }

  @Test
  void aFeatureIsCutForEveryZoomWithItsIdAndProperties() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 3, 0, 0);
    Map<TileId, FeaturePiece> pieces =
        cut(spec, feature("f", "POLYGON((1 1, 30 1, 30 30, 1 30, 1 1))"), TileFilter.ALL);
    assertEquals(1, pieces.keySet().stream().filter(t -> t.z() == 0).count());
    assertTrue(pieces.containsKey(TileId.of(3, 4, 3)));
    assertTrue(pieces.values().stream().allMatch(p -> p.id().equals("f")));
    assertTrue(pieces.values().stream().allMatch(p -> p.properties().equals("{\"n\":1}")));
    Geometry z0 = new WKBReader().read(pieces.get(TileId.of(0, 0, 0)).wkb());
    // In Web Mercator metres now.
    assertTrue(z0.getEnvelopeInternal().getMaxX() > 3_000_000);
  }

  @Test
  void aFeatureAcrossTheAntimeridianIsCutOnBothSides() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 1, 1, 0, 0);
    Map<TileId, FeaturePiece> pieces =
        cut(
            spec,
            feature("fiji", "POLYGON((178 -18, 182 -18, 182 -16, 178 -16, 178 -18))"),
            TileFilter.ALL);
    assertEquals(2, pieces.size());
    assertTrue(pieces.containsKey(TileId.of(1, 0, 1)));
    assertTrue(pieces.containsKey(TileId.of(1, 1, 1)));
  }

  @Test
  void aPoleInWebMercatorCannotBePlaced() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 0, 0, 0);
    TileDataException e =
        assertThrows(
            TileDataException.class,
            () -> cut(spec, feature("pole", "POINT(0 90)"), TileFilter.ALL));
    assertEquals("transform", e.errorClass());
  }

  @Test
  void anEmptyGeometryIsReportedNotCut() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 0, 0, 0);
    FeatureCutter.Cut c =
        new FeatureCutter(spec).cut(feature("e", "POLYGON EMPTY"), TileFilter.ALL, (t, p) -> {});
    assertTrue(c.empty());
  }

  @Test
  void coordinatesOutsideTheSourceCrsDomainAreCountedAndStillCut() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:27700"), WEB, 0, 0, 0, 0);
    // One point in Great Britain, one 1,500 km east of the grid's domain (in Poland).
    FeatureCutter.Cut c =
        new FeatureCutter(spec)
            .cut(
                feature("two", "MULTIPOINT((530000 180000), (2000000 300000))"),
                TileFilter.ALL,
                (t, p) -> {});
    assertEquals(1, c.outsideDomain());
    assertEquals(1, c.pieces());
  }

  @Test
  void onlyTheWantedTilesGetPieces() throws Exception {
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 4, 0, 0);
    TileFilter z4only =
        new TileFilter() {
          @Override
          public boolean wantsColumn(int z, long x) {
            return z == 4;
          }

          @Override
          public boolean wants(int z, long x, long y) {
            return z == 4;
          }
        };
    Map<TileId, FeaturePiece> pieces =
        cut(spec, feature("f", "POLYGON((1 1, 30 1, 30 30, 1 30, 1 1))"), z4only);
    assertTrue(pieces.keySet().stream().allMatch(t -> t.z() == 4));
    // Longitudes 1..30 are z4 columns 8 and 9, latitudes 1..30 rows 6 and 7.
    assertEquals(4, pieces.size());
  }

  @Test
  void simplificationKeepsSmallIslandsAsTriangles() throws Exception {
    // A 1 km island at zoom 0 with a whole pixel of tolerance (156 km).
    CutSpec spec = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 0, 0, 1);
    Map<TileId, FeaturePiece> pieces =
        cut(
            spec,
            feature(
                "islet",
                "POLYGON((10 10, 10.005 10, 10.01 10.002, 10.01 10.01, 10.005 10.012, 10 10.01, 10 10))"),
            TileFilter.ALL);
    Geometry g = new WKBReader().read(pieces.get(TileId.of(0, 0, 0)).wkb());
    assertEquals(4, g.getNumPoints());
    assertTrue(g.getArea() > 0);
  }

  @Test
  void aFeatureSmallerThanTheMinimumSizeIsLeftOutOfAZoomAndCounted() throws Exception {
    // An islet of about 1.1 km and a 400 km island, one feature: with a minimum size of one
    // pixel, the islet is gone wherever a pixel is wider than it (zooms 0-7: 611 m a pixel at
    // z8, 1.2 km at z7), and the feature with it only where the island is gone too.
    CutSpec spec = onePixelMinimum();
    Feature islet = feature("islet", "POLYGON((10 10, 10.01 10, 10.01 10.01, 10 10.01, 10 10))");
    assertLeftOutUpTo(7, spec, islet);
    // With an island beside it, the feature is in every zoom: nothing is counted.
    Feature both =
        feature(
            "both",
            "MULTIPOLYGON(((10 10, 10.01 10, 10.01 10.01, 10 10.01, 10 10)),"
                + " ((12 12, 16 12, 16 16, 12 16, 12 12)))");
    FeatureCutter.Cut c2 = new FeatureCutter(spec).cut(both, TileFilter.ALL, (t, p) -> {});
    assertEquals(0, c2.belowMinSize());
    // Without a minimum size, nothing is dropped.
    CutSpec keepAll = new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 8, 0, 0);
    FeatureCutter.Cut c3 = new FeatureCutter(keepAll).cut(islet, TileFilter.ALL, (t, p) -> {});
    assertEquals(0, c3.belowMinSize());
    // A dropped ring in a tile nobody asked for counts for nothing.
    TileFilter none =
        new TileFilter() {
          @Override
          public boolean wantsColumn(int z, long x) {
            return false;
          }

          @Override
          public boolean wants(int z, long x, long y) {
            return false;
          }
        };
    assertEquals(0, new FeatureCutter(spec).cut(islet, none, (t, p) -> {}).belowMinSize());
  }

  @Test
  void aSliverLongerThanTheMinimumSizeButThinnerIsLeftOutByItsArea() throws Exception {
    // 0.5 by 0.002 degrees at 10 N: about 56.5 km by 226 m in Web Mercator, 12.8 km2, the area of
    // a square 3.57 km on a side. With a minimum size of one pixel it is gone where a pixel is
    // wider than that (4.9 km at z5), though it is longer than a pixel from z2 on, and kept where
    // a pixel is narrower (2.4 km at z6).
    CutSpec spec = onePixelMinimum();
    Feature sliver = feature("sliver", "POLYGON((10 10, 10.5 10, 10.5 10.002, 10 10.002, 10 10))");
    assertLeftOutUpTo(5, spec, sliver);
    // A hole that small fills in; the island around it stays.
    Feature holed =
        feature(
            "holed",
            "POLYGON((9 9, 11 9, 11 11, 9 11, 9 9), (10 10, 10.5 10, 10.5 10.002, 10 10.002, 10 10))");
    Map<TileId, FeaturePiece> holedPieces = new TreeMap<>();
    FeatureCutter.Cut h = new FeatureCutter(spec).cut(holed, TileFilter.ALL, holedPieces::put);
    assertEquals(0, h.belowMinSize());
    Geometry z5 = new WKBReader().read(holedPieces.get(tileAt(holedPieces, 5)).wkb());
    Geometry z6 = new WKBReader().read(holedPieces.get(tileAt(holedPieces, 6)).wkb());
    assertEquals(0, ((Polygon) z5.getGeometryN(0)).getNumInteriorRing());
    assertEquals(1, ((Polygon) z6.getGeometryN(0)).getNumInteriorRing());
  }

  /**
   * Checks that {@code feature}, cut by {@code spec}, is left out of zooms up to {@code last} and
   * counted there, and has pieces at every zoom after it.
   */
  private static void assertLeftOutUpTo(int last, CutSpec spec, Feature feature)
      throws TileDataException {
    Map<TileId, FeaturePiece> pieces = new TreeMap<>();
    FeatureCutter.Cut c = new FeatureCutter(spec).cut(feature, TileFilter.ALL, pieces::put);
    for (int z = spec.minZoom(); z <= spec.maxZoom(); z++) {
      int zoom = z;
      assertEquals(z <= last, c.droppedAt(z), "zoom " + z);
      assertEquals(z > last, pieces.keySet().stream().anyMatch(t -> t.z() == zoom), "zoom " + z);
    }
  }

  /** Zooms 0-8 from lon/lat, unsimplified, rings under a pixel's area dropped. */
  private static CutSpec onePixelMinimum() {
    return new CutSpec(CrsRef.of("EPSG:4326"), WEB, 0, 8, 0, 0, -1, 1, false);
  }

  /** The one tile of zoom {@code z} among {@code pieces}. */
  private static TileId tileAt(Map<TileId, FeaturePiece> pieces, int z) {
    List<TileId> at = pieces.keySet().stream().filter(t -> t.z() == z).toList();
    assertEquals(1, at.size(), "tiles at zoom " + z);
    return at.get(0);
  }
}
