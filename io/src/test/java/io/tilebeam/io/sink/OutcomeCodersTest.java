package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResultCoder;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.util.Arrays;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The coders of what crosses the commit barrier: exact round trips, equal bytes for equal values.
 */
class OutcomeCodersTest {

  private static final TileWork WORK =
      new TileWork(
          "nightly",
          3,
          "countries",
          "WebMercatorQuad",
          TileId.of(8, 131, 87),
          "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
          "OGC:CRS84",
          "EPSG:3857",
          "flatgeobuf",
          "{\"bufferPixels\":8,\"name\":\"Zürich\"}");

  @ParameterizedTest
  @EnumSource(PublishResult.Outcome.class)
  void publishResultsRoundTrip(PublishResult.Outcome outcome) throws Exception {
    PublishResult r =
        new PublishResult(
            WorkKey.of(WORK), WORK, "file:///out/8/131/87.fgb", "sha256:ab", 1L << 40, outcome);
    byte[] bytes = CoderUtils.encodeToByteArray(PublishResultCoder.of(), r);
    assertEquals(r, CoderUtils.decodeFromByteArray(PublishResultCoder.of(), bytes));
    assertArrayEquals(bytes, CoderUtils.encodeToByteArray(PublishResultCoder.of(), r));
  }

  @Test
  void anUnknownOutcomeIsRefused() throws Exception {
    PublishResult r =
        new PublishResult(WorkKey.of(WORK), WORK, "u", "c", 0, PublishResult.Outcome.WRITTEN);
    byte[] bytes = CoderUtils.encodeToByteArray(PublishResultCoder.of(), r);
    bytes[bytes.length - 1] = 7;
    // CoderUtils reports a decoding failure as an IllegalArgumentException around the coder's.
    Exception bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoderUtils.decodeFromByteArray(PublishResultCoder.of(), bytes));
    assertEquals("not a publish outcome: 7", bad.getCause().getMessage());
    byte[] cut = Arrays.copyOf(bytes, bytes.length - 1);
    Exception truncated =
        assertThrows(
            IllegalArgumentException.class,
            () -> CoderUtils.decodeFromByteArray(PublishResultCoder.of(), cut));
    assertEquals("not a publish outcome: -1", truncated.getCause().getMessage());
  }

  @Test
  void tileFailuresRoundTrip() throws Exception {
    TileFailure f = new TileFailure(WorkKey.of(WORK), WORK, "source", "cannot read: «gone»");
    byte[] bytes = CoderUtils.encodeToByteArray(TileFailureCoder.of(), f);
    assertEquals(f, CoderUtils.decodeFromByteArray(TileFailureCoder.of(), bytes));
    assertArrayEquals(bytes, CoderUtils.encodeToByteArray(TileFailureCoder.of(), f));
  }
}
