package io.tilebeam.transforms.bench;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.KeyHasher;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.Extent;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.LayerTiling;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Plan and key throughput on one thread for WebMercatorQuad: the cover of a European extent at zoom
 * 12 (about 1.1 million tiles, two overlapping extents merged) and the work key of each tile.
 * Results are per tile. Run with {@code scripts/bench/plan-keys.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
public class PlanKeyBenchmark {

  /** Tiles of the cover below, counted in setup; JMH divides by it. */
  static final int COVER_TILES = 630_427;

  /** Keys made per invocation of the key benchmark. */
  static final int KEYS = 100_000;

  private LayerCover cover;
  private TileWork template;

  /** Plans the cover once and checks its size. */
  @Setup
  public void setUp() {
    CrsRef wgs84 = CrsRef.of("EPSG:4326");
    LayerTiling tiling =
        new LayerTiling(
            "europe",
            TileMatrixSet.webMercatorQuad(),
            List.of(new Extent(-25, 34, 45, 72, wgs84), new Extent(0, 40, 20, 60, wgs84)),
            12,
            12);
    cover = tiling.cover();
    if (cover.count() != COVER_TILES) {
      throw new IllegalStateException(
          "cover has " + cover.count() + " tiles, expected " + COVER_TILES);
    }
    template =
        new TileWork(
            "bench",
            1,
            "europe",
            "WebMercatorQuad",
            TileId.of(0, 0, 0),
            "sha256:0f343b0931126a20f133d67c2b018a3b0f3b6d2d5b9f6c7b0d1a2e3f4a5b6c7d",
            "EPSG:4326",
            "EPSG:3857",
            "flatgeobuf",
            "{\"bufferPixels\":8,\"precision\":3}");
  }

  /** Enumerates every distinct tile of the cover. */
  @Benchmark
  @OperationsPerInvocation(COVER_TILES)
  public void cover(Blackhole bh) {
    cover.forEachTile(bh::consume);
  }

  /** Builds the TileWork and the WorkKey of {@link #KEYS} tiles. */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void keys(Blackhole bh) {
    for (int i = 0; i < KEYS; i++) {
      bh.consume(WorkKey.of(template.withTile(TileId.of(12, 2000 + (i & 1023), 1300 + (i >> 10)))));
    }
  }

  /**
   * The same keys through a {@link KeyHasher}, as KeyWork and the rerun check make them: the
   * layer's shared preimage digested once.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void hashedKeys(Blackhole bh) {
    KeyHasher hasher = KeyHasher.of(template);
    for (int i = 0; i < KEYS; i++) {
      TileId tile = TileId.of(12, 2000 + (i & 1023), 1300 + (i >> 10));
      bh.consume(hasher.work(tile));
      bh.consume(hasher.key(tile));
    }
  }
}
