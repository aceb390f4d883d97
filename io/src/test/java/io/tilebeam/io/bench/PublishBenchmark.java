package io.tilebeam.io.bench;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn;
import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.io.sink.PostGisCluster;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.sink.TileSink;
import io.tilebeam.io.sink.TileSinks;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;

/**
 * Publish throughput per sink for small tiles, one thread: each tile has five square polygons
 * (about 1 KB as GeoJSON), encoded and published through the sink as the graph does. Then the same
 * tiles again: the file sinks find them unchanged (one checksum or one metadata read each); the
 * PostGIS sink, which leaves skipping to the ledger, replaces their rows again.
 *
 * <p>Args: {@code local|gcs|postgis}, then the tile count (default 5000). The GCS sink runs against
 * the in-process {@link GcsStandIn} over loopback HTTP (no real GCS here): the figure is the sink's
 * own cost and four round trips per new tile, not the service's latency. The PostGIS sink runs
 * against {@link PostGisCluster}'s test cluster, which has {@code fsync=off}. Run with {@code
 * scripts/bench/publish.sh}.
 */
public final class PublishBenchmark {

  private static final GeometryFactory GF = new GeometryFactory();

  private PublishBenchmark() {}

  private static RenderedTile tile(TileWork w, int i) {
    List<RenderedFeature> features = new ArrayList<>();
    for (int f = 0; f < 5; f++) {
      double x = i * 10.0 + f;
      Coordinate[] ring = {
        new Coordinate(x, 0),
        new Coordinate(x + 1, 0),
        new Coordinate(x + 1, 1),
        new Coordinate(x, 1),
        new Coordinate(x, 0)
      };
      byte[] wkb = new WKBWriter().write(GF.createPolygon(ring));
      features.add(new RenderedFeature(i + "-" + f, wkb, "{\"name\":\"feature " + f + "\"}"));
    }
    return RenderedTile.of(WorkKey.of(w), w, features);
  }

  /** Tiles a batch, as the publish DoFn holds them at most. */
  private static final int BATCH = 256;

  /** Runs the benchmark and prints tiles/s for each pass. */
  public static void main(String[] args) throws Exception {
    String kind = args.length > 0 ? args[0] : "local";
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    CrsRef crs = CrsRef.of("EPSG:3857");
    GcsStandIn server = null;
    PublishSpec spec;
    switch (kind) {
      case "local" -> {
        String dir = Files.createTempDirectory("publish-bench").toString();
        spec =
            new PublishSpec(
                OutputLocation.parse(dir, "geojson", null),
                new GeoJsonFormat(),
                crs,
                (io.tilebeam.io.storage.Stores) null);
      }
      case "gcs" -> {
        server = GcsStandIn.start();
        server.createBucket("bench");
        String uri = "gs://bench/tiles";
        spec =
            new PublishSpec(
                OutputLocation.parse(uri, "geojson", null),
                new GeoJsonFormat(),
                crs,
                new GcsSettings(server.endpoint(), "bench", RetryPolicy.DEFAULT));
      }
      case "postgis" -> {
        String url = PostGisCluster.url();
        String table = PostGisCluster.newSchema("bench") + ".small";
        spec =
            new PublishSpec(
                OutputLocation.parse(url, "postgis", table),
                null,
                crs,
                (io.tilebeam.io.storage.Stores) null);
      }
      default -> throw new IllegalArgumentException("sink must be local, gcs or postgis: " + kind);
    }
    TileWork template =
        new TileWork(
            "bench",
            1,
            "small",
            "WebMercatorQuad",
            TileId.of(0, 0, 0),
            "sha256:ab",
            "OGC:CRS84",
            "EPSG:3857",
            spec.format() == null ? "postgis" : "geojson",
            "{}");
    try (TileSink sink = TileSinks.open(spec, "bench-run", null)) {
      // New tiles one at a time, new tiles in batches as the publish DoFn hands them over, then
      // the batched tiles again (unchanged).
      String[] passes = {"new, one at a time", "new, batches of " + BATCH, "again, batches"};
      int[] offsets = {0, n, n};
      for (int p = 0; p < passes.length; p++) {
        long start = System.nanoTime();
        long written = 0;
        List<RenderedTile> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          int k = i + offsets[p];
          TileWork w = template.withTile(TileId.of(12, k % 4096, k / 4096));
          if (p == 0) {
            written += sink.publish(tile(w, i)).outcome() == PublishResult.Outcome.WRITTEN ? 1 : 0;
            continue;
          }
          batch.add(tile(w, i));
          if (batch.size() == BATCH || i == n - 1) {
            for (TileSink.Attempt a : sink.publishAll(batch)) {
              written += a.result().outcome() == PublishResult.Outcome.WRITTEN ? 1 : 0;
            }
            batch.clear();
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "%s sink, %s: %d tiles (%d written) in %.2f s: %.0f tiles/s%n",
            kind,
            passes[p],
            n,
            written,
            seconds,
            n / seconds);
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }
}
