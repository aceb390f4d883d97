package io.tilebeam.io.sink;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.charset.StandardCharsets;

/** The tile and the GeoJSON contents the file sinks' tests publish. */
final class SinkTestTiles {

  /** Tile 3/4/5 of layer {@code roads}, as GeoJSON. */
  static final TileWork WORK =
      new TileWork(
          "ns",
          1,
          "roads",
          "WebMercatorQuad",
          TileId.of(3, 4, 5),
          "sha256:aa",
          "OGC:CRS84",
          "EPSG:3857",
          "geojson",
          "{}");

  private SinkTestTiles() {}

  /** A FeatureCollection of {@code features} features without geometry. */
  static byte[] collection(int features) {
    StringBuilder s = new StringBuilder("{\"type\":\"FeatureCollection\",\"features\":[");
    for (int i = 0; i < features; i++) {
      s.append(i > 0 ? "," : "")
          .append("{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}");
    }
    return s.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }
}
