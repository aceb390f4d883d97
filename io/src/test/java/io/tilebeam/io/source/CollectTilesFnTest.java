package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.feature.TilePiecesCoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.Rule;
import org.junit.Test;

/**
 * The join's other side: a tile's claim, batches and the parts of a large piece, in any order, make
 * the tile with every piece whole; a tile whose large piece lacks a part fails with the reason
 * instead of being published without the feature.
 */
public class CollectTilesFnTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();

  private static TileInput.Claim claim(TileId tile) {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "l",
            "WebMercatorQuad",
            tile,
            "sha256:aa",
            "OGC:CRS84",
            "EPSG:3857",
            "flatgeobuf",
            "{}");
    return new TileInput.Claim(WorkKey.of(w), w);
  }

  private static FeaturePiece large(String id, long seed) {
    byte[] wkb = new byte[3 * PieceParts.PART_BYTES + 17];
    new Random(seed).nextBytes(wkb);
    return new FeaturePiece(id, wkb, "{}");
  }

  /** A tile's pieces as "id:bytes" and a hash of the WKB, sorted. */
  private static String summary(TilePieces t) {
    List<String> s = new ArrayList<>();
    for (FeaturePiece p : t.pieces()) {
      s.add(p.id() + ":" + p.wkb().length + ":" + Arrays.hashCode(p.wkb()));
    }
    Collections.sort(s);
    return t.work().tile().path() + " " + s;
  }

  private static KV<String, Iterable<TileInput>> group(String tile, List<TileInput> inputs) {
    return KV.of(tile, inputs);
  }

  @Test
  public void partsArePutTogetherAndATileMissingOneFails() {
    FeaturePiece canada = large("canada", 1);
    FeaturePiece small = new FeaturePiece("small", new byte[] {1, 2, 3}, "{}");
    List<TileInput> whole = new ArrayList<>();
    whole.add(claim(TileId.of(0, 0, 0)));
    whole.add(new TileInput.Pieces(List.of(small)));
    whole.addAll(PieceParts.split(canada, PieceParts.PART_BYTES));
    Collections.shuffle(whole, new Random(2));

    List<TileInput> cut = new ArrayList<>();
    cut.add(claim(TileId.of(1, 0, 0)));
    List<TileInput.Part> norway = PieceParts.split(large("norway", 3), PieceParts.PART_BYTES);
    cut.addAll(norway.subList(0, norway.size() - 1));

    PCollectionTuple out =
        pipeline
            .apply(
                Create.of(List.of(group("l/0/0/0", whole), group("l/1/0/0", cut)))
                    .withCoder(
                        KvCoder.of(StringUtf8Coder.of(), IterableCoder.of(TileInputCoder.of()))))
            .apply(
                ParDo.of(new CollectTilesFn())
                    .withOutputTags(ReadFeatures.TILES, TupleTagList.of(ReadFeatures.FAILED)));
    out.get(ReadFeatures.TILES).setCoder(TilePiecesCoder.of());
    out.get(ReadFeatures.FAILED).setCoder(TileFailureCoder.of());

    PAssert.that(
            out.get(ReadFeatures.TILES)
                .apply(
                    "Summaries",
                    MapElements.into(TypeDescriptors.strings()).via(CollectTilesFnTest::summary)))
        .containsInAnyOrder(
            "0/0/0 [canada:"
                + canada.wkb().length
                + ":"
                + Arrays.hashCode(canada.wkb())
                + ", small:3:"
                + Arrays.hashCode(small.wkb())
                + "]");
    PAssert.that(
            out.get(ReadFeatures.FAILED)
                .apply(
                    "Reasons",
                    MapElements.into(TypeDescriptors.strings())
                        .via(
                            (TileFailure f) ->
                                f.work().tile().path() + " " + f.errorClass() + " " + f.message())))
        .containsInAnyOrder(
            "1/0/0 source the piece of feature norway came incomplete from the join: part 4 of 4"
                + " seen 0 times, part 1 1");
    pipeline.run().waitUntilFinish();
  }
}
