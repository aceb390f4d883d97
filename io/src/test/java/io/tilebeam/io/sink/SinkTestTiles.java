package io.tilebeam.io.sink;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.reproject.RenderStats;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

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

  /** GeoJSON tiles in EPSG:3857 published to {@code uri}, a directory or a GCS prefix. */
  static PublishSpec geoJsonSpec(String uri, GcsSettings gcs) {
    return new PublishSpec(
        OutputLocation.parse(uri, "geojson", null),
        new GeoJsonFormat(),
        CrsRef.of("EPSG:3857"),
        gcs);
  }

  /**
   * Tile 3/x/y of layer {@code roads} rendered: one feature {@code a} at {@code pointWkt}, and the
   * features its rendering could not use.
   */
  static RenderedTile rendered(int x, int y, String pointWkt, List<FeatureFailure> deadLetters)
      throws Exception {
    TileWork w =
        new TileWork(
            "ns",
            1,
            "roads",
            "WebMercatorQuad",
            TileId.of(3, x, y),
            "sha256:aa",
            "OGC:CRS84",
            "EPSG:3857",
            "geojson",
            "{}");
    byte[] wkb = new WKBWriter().write(new WKTReader().read(pointWkt));
    return new RenderedTile(
        WorkKey.of(w),
        w,
        List.of(new RenderedFeature("a", wkb, "{}")),
        RenderStats.NONE,
        deadLetters);
  }

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
