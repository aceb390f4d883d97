package io.tilebeam.io.raster;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
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
        claimed.apply(
            "RenderTiles",
            ParDo.of(new RenderFn(specs)).withOutputTags(TILES, TupleTagList.of(FAILED)));
    out.get(TILES).setCoder(RasterContentCoder.of());
    out.get(FAILED).setCoder(TileFailureCoder.of());
    return out;
  }

  private static final class RenderFn extends DoFn<KV<WorkKey, TileWork>, RasterContent> {
    private final Map<String, RasterSpec> specs;
    private final Counter rendered = Metrics.counter(RenderRasters.class, RENDERED);
    private transient Map<String, TileResampler> open;
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
    public void process(@Element KV<WorkKey, TileWork> claim, MultiOutputReceiver out) {
      TileWork work = claim.getValue();
      RasterSpec spec = specs.get(work.layer());
      try {
        TileResampler source = open.get(work.layer());
        if (source == null) {
          source = TileResampler.open(Path.of(spec.file()));
          open.put(work.layer(), source);
        }
        CoordinateReferenceSystem crs =
            crss.computeIfAbsent(
                work.layer(), l -> CrsResolver.resolve(spec.tileMatrixSet().crs().definition()));
        Bounds b =
            spec.tileMatrixSet()
                .matrix(work.tile().z())
                .tileBounds(work.tile().x(), work.tile().y());
        RasterTile pixels =
            source.render(
                b,
                crs,
                spec.size(),
                spec.bands(),
                spec.resampling(),
                spec.nodataIn(),
                spec.type(),
                spec.nodataOut());
        GeoTiffEncoder.Georeference where =
            new GeoTiffEncoder.Georeference(
                spec.epsg(),
                spec.geographic(),
                b.minX(),
                b.maxY(),
                b.width() / spec.size(),
                b.height() / spec.size());
        rendered.inc();
        out.get(TILES).output(new RasterContent(claim.getKey(), work, pixels, where));
      } catch (Exception e) {
        // A window that cannot be read or placed fails its tile alone; the run goes on.
        out.get(FAILED)
            .output(
                new TileFailure(claim.getKey(), work, "source", String.valueOf(e.getMessage())));
      }
    }

    @Teardown
    public void teardown() throws Exception {
      if (open != null) {
        for (TileResampler r : open.values()) {
          r.close();
        }
      }
    }
  }
}
