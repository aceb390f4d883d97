package io.tilebeam.transforms.raster;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.opengis.referencing.crs.CoordinateReferenceSystem;

/**
 * The raster stage, in place of ReadFeatures and ReprojectTiles for a raster layer: each claimed
 * tile reads the source windows it needs and is resampled into its grid ({@link TileResampler}),
 * then goes to PublishTiles as {@link RasterContent}. A tile whose window cannot be read fails
 * alone ({@link #FAILED}, class {@code source}), with its reason.
 */
public final class RenderRasters
    extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollectionTuple> {

  /** The rendered tiles. */
  public static final TupleTag<RasterContent> TILES = new TupleTag<>() {};

  /** Claimed tiles whose source could not be read. */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  /** Tiles are read together in blocks of 2^GROUP_SHIFT × 2^GROUP_SHIFT of one zoom. */
  static final int GROUP_SHIFT = 2;

  /** Counter of raster tiles rendered. */
  public static final String RENDERED = "rasterTilesRendered";

  private final Map<String, RasterSpec> specs;

  private RenderRasters(Map<String, RasterSpec> specs) {
    this.specs = Map.copyOf(specs);
  }

  /** Renders the raster layers with these specs, one per layer name. */
  public static RenderRasters of(Map<String, RasterSpec> specs) {
    return new RenderRasters(specs);
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<WorkKey, TileWork>> claimed) {
    PCollectionTuple out =
        claimed
            .apply("KeyByWindow", ParDo.of(new KeyByWindowFn()))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), claimed.getCoder()))
            .apply("GroupByWindow", GroupByKey.create())
            .apply(
                "RenderTiles",
                ParDo.of(new RenderFn(specs)).withOutputTags(TILES, TupleTagList.of(FAILED)));
    out.get(TILES).setCoder(RasterContentCoder.of());
    out.get(FAILED).setCoder(TileFailureCoder.of());
    return out;
  }

  /**
   * The window a tile is read with: its layer, zoom, and the block of {@code 2^GROUP_SHIFT ×
   * 2^GROUP_SHIFT} tiles it is in.
   */
  static String windowOf(TileWork work) {
    return work.layer()
        + "/"
        + work.tile().z()
        + "/"
        + (work.tile().x() >> GROUP_SHIFT)
        + "/"
        + (work.tile().y() >> GROUP_SHIFT);
  }

  private static final class KeyByWindowFn
      extends DoFn<KV<WorkKey, TileWork>, KV<String, KV<WorkKey, TileWork>>> {
    @ProcessElement
    public void process(
        @Element KV<WorkKey, TileWork> claim,
        OutputReceiver<KV<String, KV<WorkKey, TileWork>>> out) {
      out.output(KV.of(windowOf(claim.getValue()), claim));
    }
  }

  private static final class RenderFn
      extends DoFn<KV<String, Iterable<KV<WorkKey, TileWork>>>, RasterContent> {
    private final Map<String, RasterSpec> specs;
    private final Counter rendered = Metrics.counter(RenderRasters.class, RENDERED);
    private transient Map<String, List<TileResampler>> open;
    private transient Map<String, CoordinateReferenceSystem> crss;

    RenderFn(Map<String, RasterSpec> specs) {
      this.specs = specs;
    }

    @Setup
    public void setup() {
      open = new HashMap<>();
      crss = new HashMap<>();
    }

    @ProcessElement
    public void process(
        @Element KV<String, Iterable<KV<WorkKey, TileWork>>> window, MultiOutputReceiver out) {
      List<KV<WorkKey, TileWork>> claims = new ArrayList<>();
      window.getValue().forEach(claims::add);
      String layer = claims.get(0).getValue().layer();
      RasterSpec spec = specs.get(layer);
      try {
        List<RasterTile> tiles = render(layer, spec, claims);
        for (int i = 0; i < claims.size(); i++) {
          emit(claims.get(i), spec, tiles.get(i), out);
        }
      } catch (Exception together) {
        // One tile's window may be what failed: each alone, so the others are still published
        // and the failure is the tile's own.
        for (KV<WorkKey, TileWork> claim : claims) {
          try {
            emit(claim, spec, render(layer, spec, List.of(claim)).get(0), out);
          } catch (Exception e) {
            out.get(FAILED)
                .output(
                    new TileFailure(
                        claim.getKey(),
                        claim.getValue(),
                        "source",
                        String.valueOf(e.getMessage())));
          }
        }
      }
    }

    private List<RasterTile> render(
        String layer, RasterSpec spec, List<KV<WorkKey, TileWork>> claims) throws Exception {
      CoordinateReferenceSystem crs =
          crss.computeIfAbsent(
              layer, l -> CrsResolver.resolve(spec.tileMatrixSet().crs().definition()));
      List<TileResampler> sources = open.get(layer);
      if (sources == null) {
        CoordinateReferenceSystem given = CrsResolver.resolve(spec.sourceCrs().definition());
        sources = new ArrayList<>();
        try {
          for (var bytes : spec.sources()) {
            sources.add(TileResampler.open(bytes, given));
          }
        } catch (Exception e) {
          for (TileResampler r : sources) {
            r.close();
          }
          throw e;
        }
        // Kept only whole: a layer's mosaic is never rendered from some of its sources.
        open.put(layer, sources);
      }
      List<Bounds> bounds = new ArrayList<>();
      for (KV<WorkKey, TileWork> claim : claims) {
        bounds.add(bounds(spec, claim.getValue()));
      }
      return MosaicRendering.render(sources, bounds, crs, spec.settings());
    }

    private static Bounds bounds(RasterSpec spec, TileWork work) {
      return spec.tileMatrixSet()
          .matrix(work.tile().z())
          .tileBounds(work.tile().x(), work.tile().y());
    }

    private void emit(
        KV<WorkKey, TileWork> claim, RasterSpec spec, RasterTile pixels, MultiOutputReceiver out) {
      Bounds b = bounds(spec, claim.getValue());
      int size = spec.settings().size();
      GeoTiffEncoder.Georeference where =
          new GeoTiffEncoder.Georeference(
              spec.epsg(),
              spec.geographic(),
              b.minX(),
              b.maxY(),
              b.width() / size,
              b.height() / size);
      rendered.inc();
      out.get(TILES).output(new RasterContent(claim.getKey(), claim.getValue(), pixels, where));
    }

    @Teardown
    public void teardown() throws Exception {
      if (open != null) {
        for (List<TileResampler> sources : open.values()) {
          for (TileResampler r : sources) {
            r.close();
          }
        }
      }
    }
  }
}
