package io.tilebeam.io.source;

import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Stage 4, ReadFeatures, on its own: each claimed tile leaves with the pieces of the features that
 * meet it, and only claimed tiles leave, an empty one too; a feature that cannot be read is a dead
 * letter and costs nothing else. The same features as GeoJSON (cut into parts that are spread) and
 * as GeoJSONSeq (read in byte ranges, cut where read) give the same tiles, and so does GeoJSON in
 * UTF-16 (read whole where it is taken).
 */
public class ReadFeaturesTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  /** A point in tile 1/1/0, a square around the origin in all four tiles of zoom 1, a bad one. */
  private static final List<String> FEATURES =
      List.of(
          "{\"type\":\"Feature\",\"id\":\"point\",\"properties\":{},"
              + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[10,10]}}",
          "{\"type\":\"Feature\",\"id\":\"square\",\"properties\":{\"n\":1},"
              + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
              + "[[[-10,-10],[10,-10],[10,10],[-10,10],[-10,-10]]]}}",
          "{\"type\":\"Feature\",\"id\":\"bad\",\"properties\":{},"
              + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\"x\",1]}}");

  private static final CutSpec CUT =
      new CutSpec(CrsRef.of("OGC:CRS84"), TileMatrixSet.webMercatorQuad(), 1, 2, 8, 0);

  private SourceSpec source(String format, String fileName, String text) throws IOException {
    return source(format, fileName, text, java.nio.charset.StandardCharsets.UTF_8);
  }

  private SourceSpec source(
      String format, String fileName, String text, java.nio.charset.Charset charset)
      throws IOException {
    Path file = folder.getRoot().toPath().resolve(fileName);
    Files.writeString(file, text, charset);
    FeatureSource resolved =
        (FeatureSource)
            SourceFormats.named(format)
                .orElseThrow()
                .resolve(
                    file.toString(),
                    SourceOptions.NONE,
                    io.tilebeam.io.storage.Stores.of(GcsSettings.fromEnvironment()));
    return new SourceSpec(resolved, CUT);
  }

  private static KV<WorkKey, TileWork> claim(String layer, TileId tile) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            layer,
            "WebMercatorQuad",
            tile,
            "sha256:aa",
            "OGC:CRS84",
            "EPSG:3857",
            "geojson",
            "{}");
    return KV.of(WorkKey.of(w), w);
  }

  /** A tile as a line: layer, tile and the distinct ids of its pieces, sorted. */
  private static String summary(TilePieces t) {
    TreeSet<String> ids = new TreeSet<>();
    t.pieces().stream().map(FeaturePiece::id).forEach(ids::add);
    return t.work().layer() + " " + t.work().tile().path() + " " + ids;
  }

  @Test
  public void everyClaimedTileLeavesWithThePiecesThatMeetIt() throws IOException {
    Map<String, SourceSpec> sources =
        Map.of(
            "whole",
            source("geojson", "f.geojson", featureCollection()),
            "ranges",
            source("geojsonseq", "f.geojsonl", String.join("\n", FEATURES) + "\n"),
            // Not UTF-8: not cut into parts, read whole where the file is taken.
            "utf16",
            source(
                "geojson",
                "u.geojson",
                "\uFEFF" + featureCollection(),
                java.nio.charset.StandardCharsets.UTF_16BE));
    List<KV<WorkKey, TileWork>> claims = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (String layer : sources.keySet()) {
      // Tile 1/0/1 is not claimed: nothing is cut for it. Tile 2/0/3 is claimed but empty.
      claims.add(claim(layer, TileId.of(1, 0, 0)));
      claims.add(claim(layer, TileId.of(1, 1, 0)));
      claims.add(claim(layer, TileId.of(1, 1, 1)));
      claims.add(claim(layer, TileId.of(2, 0, 3)));
      expected.add(layer + " 1/0/0 [square]");
      expected.add(layer + " 1/1/0 [point, square]");
      expected.add(layer + " 1/1/1 [square]");
      expected.add(layer + " 2/0/3 []");
    }
    PCollectionTuple read =
        pipeline
            .apply(Create.of(claims).withCoder(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of())))
            .apply(ReadFeatures.from(sources));
    PCollection<String> tiles =
        read.get(ReadFeatures.TILES)
            .apply(
                "Summaries",
                MapElements.into(TypeDescriptors.strings()).via(ReadFeaturesTest::summary));
    PAssert.that(tiles).containsInAnyOrder(expected);
    PCollection<String> dead =
        read.get(ReadFeatures.DEAD_LETTERS)
            .apply(
                "DeadIds",
                MapElements.into(TypeDescriptors.strings())
                    .via((FeatureFailure f) -> f.layer() + " " + f.featureId()));
    PAssert.that(dead).containsInAnyOrder("whole bad", "ranges bad", "utf16 bad");
    PAssert.that(read.get(ReadFeatures.FAILED)).empty();
    pipeline.run().waitUntilFinish();
  }

  private static String featureCollection() {
    return "{\"type\":\"FeatureCollection\",\"features\":[" + String.join(",", FEATURES) + "]}";
  }
}
