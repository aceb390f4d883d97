package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a rendered tile says about the heap it holds, by which the publish stage bounds a batch. */
class RenderedTileTest {

  private static final TileWork WORK =
      new TileWork(
          "nightly",
          5,
          "squares",
          "WebMercatorQuad",
          TileId.of(7, 64, 42),
          "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
          "OGC:CRS84",
          "EPSG:3857",
          "flatgeobuf",
          "{}");

  private static RenderedTile tile(int features, int wkbBytes) {
    List<RenderedFeature> list = new ArrayList<>();
    for (int i = 0; i < features; i++) {
      list.add(new RenderedFeature("f" + (1000 + i), new byte[wkbBytes], "{\"n\":12}"));
    }
    return RenderedTile.of(WorkKey.of(WORK), WORK, list);
  }

  @Test
  void anEmptyTileHoldsItsFixedPartOnly() {
    assertEquals(256, tile(0, 0).heapBytes());
  }

  @Test
  void everyFeatureAddsItsBytesAndTheObjectsAroundThem() {
    // Id "f1000" is 5 characters, the properties 8: each feature is 112 + WKB + 13.
    assertEquals(256 + 3 * (112 + 97 + 13), tile(3, 97).heapBytes());
  }
}
