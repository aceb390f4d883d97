package io.tilebeam.transforms.bench;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileRenderer;
import io.tilebeam.transforms.tiling.Bounds;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-tile rendering throughput on one thread (ReprojectTiles' work): a zoom-8 WebMercatorQuad tile
 * with {@code features} WGS 84 polygons of 64 vertices each, some crossing the tile's edges,
 * transformed to the matrix set's CRS, repaired when invalid, clipped, transformed to the target
 * and rounded. Run with {@code scripts/bench/render.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
public class RenderBenchmark {

  /** Features per tile. */
  @Param({"10", "200"})
  public int features;

  /** Target CRS: the matrix set's own, or geographic. */
  @Param({"EPSG:3857", "EPSG:4326"})
  public String target;

  private TileRenderer renderer;
  private TileFeatures tile;

  /** Builds the tile's features once. */
  @Setup
  public void setUp() {
    TileMatrixSet tms = TileMatrixSet.webMercatorQuad();
    TileId id = TileId.of(8, 136, 90);
    renderer =
        new TileRenderer(new RenderSpec(tms, CrsRef.of("EPSG:4326"), CrsRef.of(target), 8, 6));
    Bounds b = tms.matrix(8).tileBounds(id.x(), id.y());
    // The tile's bounds in degrees, from Web Mercator's inverse formulas.
    double west = Math.toDegrees(b.minX() / 6378137.0);
    double east = Math.toDegrees(b.maxX() / 6378137.0);
    double south = Math.toDegrees(Math.atan(Math.sinh(b.minY() / 6378137.0)));
    double north = Math.toDegrees(Math.atan(Math.sinh(b.maxY() / 6378137.0)));
    SplittableRandom random = new SplittableRandom(8);
    GeometryFactory gf = new GeometryFactory();
    WKBWriter wkb = new WKBWriter(2);
    List<Feature> fs = new ArrayList<>();
    for (int i = 0; i < features; i++) {
      double cx = west + (east - west) * (random.nextDouble() * 1.2 - 0.1);
      double cy = south + (north - south) * (random.nextDouble() * 1.2 - 0.1);
      double r = (east - west) * 0.05 * (0.5 + random.nextDouble());
      Coordinate[] ring = new Coordinate[65];
      for (int k = 0; k < 64; k++) {
        double a = 2 * Math.PI * k / 64;
        double rr = r * (0.8 + 0.4 * random.nextDouble());
        ring[k] = new Coordinate(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
      }
      ring[64] = ring[0];
      fs.add(
          new Feature(
              String.format("f%04d", i), wkb.write(gf.createPolygon(ring)), "{\"n\":" + i + "}"));
    }
    TileWork w =
        new TileWork(
            "bench",
            1,
            "render",
            "WebMercatorQuad",
            id,
            "sha256:ab",
            "EPSG:4326",
            target,
            "geojson",
            "{}");
    tile = new TileFeatures(WorkKey.of(w), w, fs);
  }

  /** Renders the tile. */
  @Benchmark
  public RenderedTile render() throws Exception {
    return renderer.render(tile);
  }
}
