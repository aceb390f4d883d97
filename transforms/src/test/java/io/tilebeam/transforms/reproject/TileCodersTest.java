package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.feature.TilePiecesCoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.FeatureFailureCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The coders of what goes from cutting to rendering and from rendering to the sinks: exact round
 * trips, equal bytes for equal values, truncated input refused.
 */
class TileCodersTest {

  private static final TileWork WORK =
      new TileWork(
          "nightly",
          5,
          "countries",
          "WebMercatorQuad",
          TileId.of(8, 131, 87),
          "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
          "OGC:CRS84",
          "EPSG:3857",
          "flatgeobuf",
          "{\"bufferPixels\":8}");

  private static <T> void roundTrips(Coder<T> coder, T value) throws Exception {
    byte[] bytes = CoderUtils.encodeToByteArray(coder, value);
    assertEquals(value, CoderUtils.decodeFromByteArray(coder, bytes));
    assertArrayEquals(bytes, CoderUtils.encodeToByteArray(coder, value));
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    assertThrows(Exception.class, () -> CoderUtils.decodeFromByteArray(coder, cut));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3000})
  void tilePiecesRoundTrip(int pieces) throws Exception {
    List<FeaturePiece> list = new ArrayList<>();
    for (int i = 0; i < pieces; i++) {
      list.add(new FeaturePiece("#" + i, new byte[] {1, (byte) i, 0, -1}, "{\"name\":\"Zürich\"}"));
    }
    roundTrips(TilePiecesCoder.of(), new TilePieces(WorkKey.of(WORK), WORK, list));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3000})
  void renderedTilesRoundTrip(int features) throws Exception {
    List<RenderedFeature> list = new ArrayList<>();
    for (int i = 0; i < features; i++) {
      list.add(new RenderedFeature("#" + i, new byte[i % 7], "{\"n\":" + i + "}"));
    }
    List<FeatureFailure> dead =
        List.of(
            new FeatureFailure("countries", "#9", "8/131/87", "geometry", "beyond repair"),
            new FeatureFailure("countries", null, null, "transform", "«no place»"));
    RenderedTile tile =
        new RenderedTile(WorkKey.of(WORK), WORK, list, new RenderStats(5, 1, 2, 3, 1L << 40), dead);
    roundTrips(RenderedTileCoder.of(), tile);
  }

  @Test
  void featureFailuresRoundTripWithAbsentFields() throws Exception {
    roundTrips(FeatureFailureCoder.of(), new FeatureFailure(null, null, null, null, null));
    roundTrips(FeatureFailureCoder.of(), new FeatureFailure("l", "id", "", "e", "why"));
  }
}
