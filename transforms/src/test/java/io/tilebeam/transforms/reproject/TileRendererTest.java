package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

class TileRendererTest {

  private static final RenderSpec TO_4326 =
      new RenderSpec(
          TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:4326"), CrsRef.of("EPSG:4326"), 0, 6);

  private static Feature feature(String id, String wkt) throws Exception {
    return new Feature(id, new WKBWriter(2).write(new WKTReader().read(wkt)), "{}");
  }

  private static TileFeatures tile(int z, long x, long y, Feature... features) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "l",
            "WebMercatorQuad",
            TileId.of(z, x, y),
            "sha256:aa",
            "EPSG:4326",
            "EPSG:4326",
            "geojson",
            "{}");
    return new TileFeatures(WorkKey.of(w), w, List.of(features));
  }

  private static Geometry geometry(RenderedFeature f) throws Exception {
    return new WKBReader().read(f.wkb());
  }

  @Test
  void clipsToTheTileAndRoundsToThePrecision() throws Exception {
    // z1 tile 1/0 is the north-east quarter: longitudes 0..180, latitudes 0..85.05.
    RenderedTile t =
        new TileRenderer(TO_4326)
            .render(tile(1, 1, 0, feature("a", "POLYGON((-10 10, 10 10, 10 20, -10 20, -10 10))")));
    assertEquals(1, t.features().size());
    Geometry g = geometry(t.features().get(0));
    assertEquals(0.0, g.getEnvelopeInternal().getMinX(), 1e-6);
    assertEquals(10.0, g.getEnvelopeInternal().getMaxX(), 1e-6);
    assertEquals(100.0, g.getArea(), 1e-6);
  }

  @Test
  void featuresOutsideTheTileAreDroppedAndTheRestSortedById() throws Exception {
    RenderedTile t =
        new TileRenderer(TO_4326)
            .render(
                tile(
                    1,
                    1,
                    0,
                    feature("z", "POINT(20 20)"),
                    feature("west", "POINT(-20 20)"),
                    feature("a", "POINT(30 30)")));
    assertEquals(List.of("a", "z"), t.features().stream().map(RenderedFeature::id).toList());
  }

  @Test
  void invalidGeometriesAreRepairedAndCounted() throws Exception {
    RenderedTile t =
        new TileRenderer(TO_4326)
            .render(tile(0, 0, 0, feature("bowtie", "POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))")));
    assertEquals(1, t.repaired());
    assertEquals(1, t.features().size());
    assertEquals(true, geometry(t.features().get(0)).isValid());
  }

  @Test
  void sameInputGivesSameBytes() throws Exception {
    Feature f = feature("a", "POLYGON((1 1, 50 1, 50 40, 1 40, 1 1))");
    RenderedTile a = new TileRenderer(TO_4326).render(tile(2, 2, 1, f));
    RenderedTile b = new TileRenderer(TO_4326).render(tile(2, 2, 1, f));
    assertArrayEquals(a.features().get(0).wkb(), b.features().get(0).wkb());
  }

  @Test
  void badFeaturesGoToTheDeadLetterAndTheRestOfTheTileIsRendered() throws Exception {
    RenderedTile t =
        new TileRenderer(TO_4326)
            .render(
                tile(
                    0,
                    0,
                    0,
                    feature("good", "POINT(10 10)"),
                    new Feature("garbage", new byte[] {1, 2, 3}, "{}"),
                    // The pole has no Web Mercator y: it cannot be transformed.
                    feature("pole", "POINT(0 90)"),
                    feature("empty", "POLYGON EMPTY")));
    assertEquals(List.of("good"), t.features().stream().map(RenderedFeature::id).toList());
    assertEquals(1, t.empty());
    assertEquals(
        List.of("garbage geometry", "pole transform"),
        t.deadLetters().stream().map(f -> f.featureId() + " " + f.errorClass()).sorted().toList());
    assertTrue(
        t.deadLetters().stream().allMatch(f -> f.layer().equals("l") && f.tile().equals("0/0/0")));
    assertTrue(t.deadLetters().get(0).toJsonLine().startsWith("{\"errorClass\":"));
  }

  @Test
  void coordinatesOutsideTheSourceCrsDomainAreCountedAndStillTransformed() throws Exception {
    RenderSpec fromBritishGrid =
        new RenderSpec(
            TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:27700"), CrsRef.of("EPSG:4326"), 0, 6);
    // One point in Great Britain, one 1,500 km east of the grid's domain (in Poland).
    RenderedTile t =
        new TileRenderer(fromBritishGrid)
            .render(
                tile(
                    0,
                    0,
                    0,
                    feature("london", "POINT(530000 180000)"),
                    feature("warsaw", "POINT(2000000 300000)")));
    assertEquals(1, t.outsideDomain());
    assertEquals(2, t.features().size());
  }
}
