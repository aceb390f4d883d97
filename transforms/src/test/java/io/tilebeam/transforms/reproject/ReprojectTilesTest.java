package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.feature.TilePiecesCoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.Rule;
import org.junit.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/**
 * Stage 5, ReprojectTiles, on its own: each tile is rendered with its own layer's spec (target CRS,
 * precision), its features in id order, an invalid piece repaired, and its coded form survives.
 */
public class ReprojectTilesTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static final Map<String, RenderSpec> SPECS =
      Map.of(
          "geo", new RenderSpec(TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:4326"), 6),
          "merc", new RenderSpec(TileMatrixSet.webMercatorQuad(), CrsRef.of("EPSG:3857"), 3));

  private static FeaturePiece piece(String id, String wkt) {
    try {
      return new FeaturePiece(id, new WKBWriter(2).write(new WKTReader().read(wkt)), "{}");
    } catch (ParseException e) {
      throw new IllegalArgumentException(wkt, e);
    }
  }

  private static TilePieces tile(String layer, int x, FeaturePiece... pieces) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            layer,
            "WebMercatorQuad",
            TileId.of(1, x, 0),
            "sha256:aa",
            "EPSG:3857",
            SPECS.get(layer).targetCrs().identity(),
            "geojson",
            "{}");
    return new TilePieces(WorkKey.of(w), w, List.of(pieces));
  }

  /** A rendered tile as a line: layer, tile, ids in order, and each feature's WKT or area. */
  private static String summary(RenderedTile t) {
    StringBuilder s = new StringBuilder(t.work().layer() + " " + t.work().tile().path() + ":");
    for (RenderedFeature f : t.features()) {
      Geometry g;
      try {
        g = new WKBReader().read(f.wkb());
      } catch (ParseException e) {
        throw new IllegalStateException(e);
      }
      s.append(' ').append(f.id()).append('=');
      s.append(
          g.getDimension() == 2
              ? String.format(Locale.ROOT, "area %.3f valid %s", g.getArea(), g.isValid())
              : g.toText());
    }
    return s.append(" dead ").append(t.deadLetters().size()).toString();
  }

  @Test
  public void eachTileIsRenderedWithItsLayersSpec() {
    List<TilePieces> tiles =
        List.of(
            // One degree east of Greenwich is 111,319.49079327357 m in Web Mercator.
            tile("geo", 1, piece("p", "POINT(111319.49079327357 0.0000001)")),
            tile(
                "merc",
                0,
                piece("z", "POINT(20.00049 20)"),
                piece("bowtie", "POLYGON((0 0, 10 10, 10 0, 0 10, 0 0))"),
                piece("a", "LINESTRING(0 0, 3.0004 4)")));
    PCollection<String> rendered =
        pipeline
            .apply(Create.of(tiles).withCoder(TilePiecesCoder.of()))
            .apply(ReprojectTiles.withSpecs(SPECS))
            .apply(MapElements.into(TypeDescriptors.strings()).via(ReprojectTilesTest::summary));
    PAssert.that(rendered)
        .containsInAnyOrder(
            "geo 1/1/0: p=POINT (1 0) dead 0",
            "merc 1/0/0: a=LINESTRING (0 0, 3 4) bowtie=area 50.000 valid true"
                + " z=POINT (20 20) dead 0");
    pipeline.run().waitUntilFinish();
  }
}
