package io.tilebeam.transforms.bench;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CountryFixture;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.cut.TileFilter;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileRenderer;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Tile-features per second on one thread, the engine's whole work for a zoom or a range of zooms:
 * every feature read from WKB, taken to Web Mercator, checked (and repaired once when invalid), cut
 * into its tile pieces ({@link FeatureCutter}), and every tile's pieces rendered to the target CRS,
 * rounded, checked and written as WKB ({@link TileRenderer}). A tile-feature is one feature in one
 * tile.
 *
 * <p>Two sources: the real country outlines of the fixture ({@code countries}, nine countries and
 * 16,707 vertices in WGS 84) and synthetic squares ({@code squares}: 2,000 WGS 84 polygons of 64
 * vertices over Europe, up to a few tiles wide at zoom 8). Run with {@code
 * scripts/bench/render.sh}; the {@code tileFeatures} line is the figure.
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

  /** The features: {@code countries} (the fixture) or {@code squares}. */
  @Param({"countries", "squares"})
  public String source;

  /**
   * The zooms cut and rendered: one zoom, or a range ({@code 0-8}) cut in one pass as a job does,
   * where a feature is read, checked and repaired once for all its zooms.
   */
  @Param({"4", "6", "8", "0-8"})
  public String zoom;

  private static final TileMatrixSet WEB = TileMatrixSet.webMercatorQuad();
  private List<Feature> features;
  private FeatureCutter cutter;
  private TileRenderer renderer;

  /** Tile-features done, reported by JMH as a rate. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counts {
    /** Features written into tiles. */
    public long tileFeatures;
  }

  /** Reads or builds the features once. */
  @Setup
  public void setUp() throws IOException {
    features = source.equals("countries") ? countries() : squares();
    CrsRef wgs84 = CrsRef.of("EPSG:4326");
    String[] range = zoom.split("-");
    int min = Integer.parseInt(range[0]);
    int max = Integer.parseInt(range[range.length - 1]);
    cutter = new FeatureCutter(new CutSpec(wgs84, WEB, min, max, 4, 0));
    renderer = new TileRenderer(new RenderSpec(WEB, CrsRef.of("EPSG:3857"), 2));
  }

  private static List<Feature> countries() throws IOException {
    Path file = Path.of("src/fixtures/countries/countries-sample.geojson");
    return CountryFixture.features(Files.exists(file) ? file : CountryFixture.FILE);
  }

  private static List<Feature> squares() {
    SplittableRandom random = new SplittableRandom(8);
    GeometryFactory gf = new GeometryFactory();
    WKBWriter wkb = new WKBWriter(2);
    List<Feature> out = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      double cx = random.nextDouble(-10, 30);
      double cy = random.nextDouble(36, 60);
      double r = random.nextDouble(0.2, 2.0);
      Coordinate[] ring = new Coordinate[65];
      for (int k = 0; k < 64; k++) {
        // A square's outline with 16 vertices a side.
        int side = k / 16;
        double t = (k % 16) / 16.0 * 2 - 1;
        double x = side == 0 ? t : side == 1 ? 1 : side == 2 ? -t : -1;
        double y = side == 0 ? -1 : side == 1 ? t : side == 2 ? 1 : -t;
        ring[k] = new Coordinate(cx + x * r, cy + y * r);
      }
      ring[64] = ring[0];
      out.add(new Feature("s" + i, wkb.write(gf.createPolygon(ring)), "{\"n\":" + i % 97 + "}"));
    }
    return out;
  }

  /** Cuts every feature for the zoom and renders every tile. */
  @Benchmark
  public long cutAndRender(Counts counts) throws TileDataException {
    Map<TileId, List<FeaturePiece>> byTile = new HashMap<>();
    for (Feature f : features) {
      cutter.cut(
          f, TileFilter.ALL, (t, p) -> byTile.computeIfAbsent(t, k -> new ArrayList<>()).add(p));
    }
    long written = 0;
    for (Map.Entry<TileId, List<FeaturePiece>> e : byTile.entrySet()) {
      TileWork work =
          new TileWork(
              "bench",
              3,
              "l",
              "WebMercatorQuad",
              e.getKey(),
              "sha256:aa",
              "EPSG:4326",
              "EPSG:3857",
              "flatgeobuf",
              "{}");
      RenderedTile t = renderer.render(new TilePieces(WorkKey.of(work), work, e.getValue()));
      written += t.features().size();
    }
    counts.tileFeatures += written;
    return written;
  }
}
