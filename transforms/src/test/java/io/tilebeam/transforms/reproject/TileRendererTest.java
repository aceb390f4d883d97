package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CountryFixture;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.GridPiece;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/** Pieces arrive in Web Mercator, cut already; the renderer transforms, rounds, checks, sorts. */
class TileRendererTest {

  private static final RenderSpec TO_4326 =
      new RenderSpec(TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:4326"), 6);

  private static final RenderSpec TO_3857 =
      new RenderSpec(TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:3857"), 3);

  private static FeaturePiece piece(String id, String wkt) throws Exception {
    return new FeaturePiece(id, new WKBWriter(2).write(new WKTReader().read(wkt)), "{}");
  }

  private static TilePieces tile(FeaturePiece... pieces) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "l",
            "WebMercatorQuad",
            TileId.of(1, 1, 0),
            "sha256:aa",
            "EPSG:4326",
            "EPSG:4326",
            "geojson",
            "{}");
    return new TilePieces(WorkKey.of(w), w, List.of(pieces));
  }

  private static Geometry geometry(RenderedFeature f) throws Exception {
    return new WKBReader().read(f.wkb());
  }

  @Test
  void piecesMarkedValidAtTheCutterRenderAsTheFullPathDoes() throws Exception {
    // The fixture countries cut twice: in full precision (the renderer rounds and checks every
    // piece) and rounded at the cutter, where most pieces come marked valid and are taken as
    // they are. Every tile must come out the same, byte for byte, with the same counts.
    Map<TileId, List<FeaturePiece>> full = cutCountries(-1);
    Map<TileId, List<FeaturePiece>> rounded = cutCountries(3);
    assertEquals(full.keySet(), rounded.keySet());
    TileRenderer renderer = new TileRenderer(TO_3857);
    long marked = 0;
    long pieces = 0;
    for (TileId id : full.keySet()) {
      for (FeaturePiece p : rounded.get(id)) {
        marked += GridPiece.keptValid(p.wkb()) ? 1 : 0;
        pieces++;
      }
      RenderedTile expected = renderer.render(tile(id, full.get(id)));
      RenderedTile actual = renderer.render(tile(id, rounded.get(id)));
      assertEquals(expected.features(), actual.features(), id.toString());
      assertEquals(expected.stats(), actual.stats(), id.toString());
      assertEquals(expected.deadLetters(), actual.deadLetters(), id.toString());
    }
    assertTrue(marked * 10 > pieces * 8, marked + " of " + pieces + " marked");
  }

  private static Map<TileId, List<FeaturePiece>> cutCountries(int gridDigits) throws Exception {
    FeatureCutter cutter =
        new FeatureCutter(
            new CutSpec(
                CrsRef.of("EPSG:4326"), TileMatrixSet.webMercatorQuad(), 0, 4, 8, 0, gridDigits));
    Map<TileId, List<FeaturePiece>> out = new TreeMap<>();
    for (Feature f : CountryFixture.features()) {
      cutter.cut(
          f, TileFilter.ALL, (t, p) -> out.computeIfAbsent(t, k -> new ArrayList<>()).add(p));
    }
    return out;
  }

  /** The pieces of tile {@code id} as the renderer receives them. */
  static TilePieces tile(TileId id, List<FeaturePiece> pieces) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "l",
            "WebMercatorQuad",
            id,
            "sha256:aa",
            "EPSG:4326",
            "EPSG:3857",
            "geojson",
            "{}");
    return new TilePieces(WorkKey.of(w), w, pieces);
  }

  @Test
  void transformsToTheTargetAndRoundsToThePrecision() throws Exception {
    // One degree east of Greenwich on the equator is 111,319.49079327357 m in Web Mercator.
    RenderedTile t =
        new RenderedTileOf(TO_4326)
            .of(piece("a", "POINT(111319.49079327357 0.0000001)"))
            .rendered();
    Geometry g = geometry(t.features().get(0));
    assertEquals(1.0, g.getCoordinate().x, 0);
    assertEquals(0.0, g.getCoordinate().y, 0);
  }

  @Test
  void featuresAreSortedById() throws Exception {
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(
                piece("z", "POINT(20 20)"),
                piece("west", "POINT(-20 20)"),
                piece("a", "POINT(3 3)"))
            .rendered();
    assertEquals(
        List.of("a", "west", "z"), t.features().stream().map(RenderedFeature::id).toList());
  }

  @Test
  void anInvalidPieceIsRepairedAndCounted() throws Exception {
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(piece("bowtie", "POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))"))
            .rendered();
    assertEquals(1, t.stats().repaired());
    assertEquals(1, t.features().size());
    assertTrue(geometry(t.features().get(0)).isValid());
    assertEquals(50, geometry(t.features().get(0)).getArea(), 1e-9);
  }

  @Test
  void aSpikeMadeByRoundingIsCleanedCheaply() throws Exception {
    // The spike out to (20, 5.0004) comes straight back once rounded to a millimetre.
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(
                piece(
                    "spike", "POLYGON((0 0, 10 0, 10 5, 20 5.0004, 10 5.0001, 10 10, 0 10, 0 0))"))
            .rendered();
    assertEquals(1, t.stats().cleaned());
    assertEquals(0, t.stats().repaired());
    assertEquals(100, geometry(t.features().get(0)).getArea(), 1e-9);
  }

  @Test
  void aSliverThinnerThanThePrecisionIsCountedAsCollapsed() throws Exception {
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(piece("sliver", "POLYGON((0 0, 10 0, 10 0.0001, 0 0.0001, 0 0))"))
            .rendered();
    assertEquals(0, t.features().size());
    assertEquals(1, t.stats().collapsed());
  }

  @Test
  void sameInputGivesSameBytes() throws Exception {
    FeaturePiece p = piece("a", "POLYGON((1 1, 50 1, 50 40, 1 40, 1 1))");
    RenderedTile a = new RenderedTileOf(TO_4326).of(p).rendered();
    RenderedTile b = new RenderedTileOf(TO_4326).of(p).rendered();
    assertArrayEquals(a.features().get(0).wkb(), b.features().get(0).wkb());
  }

  @Test
  void anUnreadablePieceGoesToTheDeadLetterAndTheRestIsRendered() throws Exception {
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(piece("good", "POINT(10 10)"), new FeaturePiece("garbage", new byte[] {1, 2}, "{}"))
            .rendered();
    assertEquals(List.of("good"), t.features().stream().map(RenderedFeature::id).toList());
    assertEquals(1, t.deadLetters().size());
    assertEquals("garbage", t.deadLetters().get(0).featureId());
    assertEquals("geometry", t.deadLetters().get(0).errorClass());
    assertEquals("1/1/0", t.deadLetters().get(0).tile());
  }

  @Test
  void verticesWrittenAreCounted() throws Exception {
    RenderedTile t =
        new RenderedTileOf(TO_3857)
            .of(piece("a", "POLYGON((0 0, 10 0, 10 10, 0 0))"), piece("b", "POINT(1 1)"))
            .rendered();
    assertEquals(5, t.stats().vertices());
    assertEquals(2, t.stats().pieces());
  }

  /** A renderer and the tile it renders. */
  private record RenderedTileOf(RenderSpec spec, TilePieces tile) {
    RenderedTileOf(RenderSpec spec) {
      this(spec, null);
    }

    RenderedTileOf of(FeaturePiece... pieces) {
      return new RenderedTileOf(spec, TileRendererTest.tile(pieces));
    }

    RenderedTile rendered() {
      return new TileRenderer(spec).render(tile);
    }
  }
}
