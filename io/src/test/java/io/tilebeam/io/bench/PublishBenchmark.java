package io.tilebeam.io.bench;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.io.sink.LocalTileSink;
import io.tilebeam.io.sink.PublishResult;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Publish throughput of the local sink for small tiles, one thread: each tile is a five-feature
 * GeoJSON FeatureCollection (about 1 KB), written to a hidden temporary file, forced to disk, read
 * back and validated, moved atomically onto its final name, and its directory forced. Then the same
 * tiles again, which the sink finds unchanged (one checksum of the existing file each). Args: tile
 * count (default 5000), then the output directory (default: a new temporary directory). Run with
 * {@code scripts/bench/publish.sh}.
 */
public final class PublishBenchmark {

  private PublishBenchmark() {}

  private static byte[] tile(int i) {
    StringBuilder s = new StringBuilder("{\"type\":\"FeatureCollection\",\"features\":[");
    for (int f = 0; f < 5; f++) {
      s.append(f > 0 ? "," : "")
          .append("{\"type\":\"Feature\",\"id\":\"")
          .append(i)
          .append('-')
          .append(f)
          .append("\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[")
          .append(i)
          .append(",0],[")
          .append(i)
          .append(",1],[0,1],[0,0]]]},\"properties\":{\"name\":\"feature ")
          .append(f)
          .append("\"}}");
    }
    return s.append("]}\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Runs the benchmark and prints tiles/s for new and unchanged tiles. */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    Path root = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("publish-bench");
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
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
            "geojson",
            "{}");
    for (String pass : new String[] {"new", "unchanged"}) {
      long start = System.nanoTime();
      long bytes = 0;
      for (int i = 0; i < n; i++) {
        TileWork w = template.withTile(TileId.of(12, i % 4096, i / 4096));
        byte[] t = tile(i);
        bytes += t.length;
        PublishResult r = sink.publish(WorkKey.of(w), w, t, 5);
        if (pass.equals("unchanged") != (r.outcome() == PublishResult.Outcome.UNCHANGED)) {
          throw new IllegalStateException("tile " + i + " was " + r.outcome() + " on pass " + pass);
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "local sink, %s tiles: %d tiles of %.1f KB in %.2f s: %.0f tiles/s (%s)%n",
          pass,
          n,
          bytes / 1024.0 / n,
          seconds,
          n / seconds,
          root);
    }
  }
}
