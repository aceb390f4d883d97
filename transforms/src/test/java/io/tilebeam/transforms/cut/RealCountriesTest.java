package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CoordinateTransformer;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Antimeridian;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileRenderer;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;
import org.locationtech.jts.operation.union.UnaryUnionOp;

/**
 * Real country outlines (the fixture of {@code src/fixtures/countries}) cut and finished at every
 * zoom of a small job: every piece is valid, no country goes missing from a tile it covers, and a
 * country's pieces over neighbouring tiles join back into the country within the rounding.
 */
class RealCountriesTest {

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");
  private static final GeometryFactory GF = new GeometryFactory();

  @ParameterizedTest
  @CsvSource({"0, 0", "1, 8", "2, 0", "3, 8", "4, 0", "5, 8", "6, 0", "7, 8", "8, 0", "8, 8"})
  void everyCountryIsWholeInItsTilesAtThisZoom(int z, double buffer) throws Exception {
    List<Feature> countries = CountryFixture.features();
    Map<TileId, List<FeaturePiece>> byTile = new TreeMap<>();
    FeatureCutter cutter = new FeatureCutter(new CutSpec(WGS84, WEB, z, z, buffer, 0));
    for (Feature f : countries) {
      cutter.cut(
          f, TileFilter.ALL, (t, p) -> byTile.computeIfAbsent(t, k -> new ArrayList<>()).add(p));
    }
    if (z == 0) {
      assertEquals(countries.size(), byTile.get(TileId.of(0, 0, 0)).size());
    }
    TileRenderer renderer = new TileRenderer(new RenderSpec(WEB, CrsRef.of("EPSG:3857"), 3));
    Map<String, List<Geometry>> rendered = new HashMap<>();
    WKBReader reader = new WKBReader();
    for (Map.Entry<TileId, List<FeaturePiece>> e : byTile.entrySet()) {
      RenderedTile t =
          renderer.render(new TilePieces(key(e.getKey()), work(e.getKey()), e.getValue()));
      assertEquals(List.of(), t.deadLetters(), "dead letters in " + e.getKey());
      Geometry box = box(e.getKey(), buffer);
      for (RenderedFeature f : t.features()) {
        Geometry g = reader.read(f.wkb());
        assertTrue(g.isValid(), f.id() + " in " + e.getKey() + " is invalid");
        assertTrue(box.buffer(0.001).covers(g), f.id() + " in " + e.getKey() + " leaves its tile");
        rendered.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(g);
      }
    }
    if (buffer > 0) {
      return;
    }
    // Without a buffer, the pieces tile the country exactly: their union is the country.
    CoordinateTransformer toWeb =
        new CoordinateTransformer(CrsTransforms.operation(WGS84, WEB.crs()).getMathTransform());
    Geometry world = box(TileId.of(0, 0, 0), 0);
    for (Feature f : countries) {
      Geometry country =
          OverlayNGRobust.overlay(
              toWeb.apply(Antimeridian.split(reader.read(f.wkb())).buffer(0)), world, 1);
      Geometry union = UnaryUnionOp.union(rendered.get(f.id()));
      double tolerance = (country.getLength() + union.getLength()) * 1e-3;
      double diff = OverlayNGRobust.overlay(union, country, 4).getArea();
      assertTrue(
          diff <= tolerance,
          f.id() + " at zoom " + z + ": pieces differ from the country by " + diff + " m²");
    }
  }

  private static Geometry box(TileId t, double bufferPixels) {
    TileMatrix m = WEB.matrix(t.z());
    Bounds b =
        m.tileBounds(t.x(), t.y())
            .expand(
                bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
                bufferPixels * m.tileSpanY() / m.tileHeightPixels());
    return GF.toGeometry(new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY()));
  }

  private static TileWork work(TileId t) {
    return new TileWork(
        "ns",
        1,
        "countries",
        "WebMercatorQuad",
        t,
        "sha256:aa",
        "EPSG:4326",
        "EPSG:3857",
        "flatgeobuf",
        "{}");
  }

  private static WorkKey key(TileId t) {
    return WorkKey.of(work(t));
  }
}
