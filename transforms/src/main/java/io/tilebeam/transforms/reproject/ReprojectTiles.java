package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.outcome.TileFailure;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Stage 5 of the graph: each claimed tile's features are reprojected, clipped and put in their
 * final order ({@link TileRenderer}). A tile whose data cannot be rendered goes to {@link #FAILED}
 * with its reason; the other tiles go on.
 */
public final class ReprojectTiles extends PTransform<PCollection<TileFeatures>, PCollectionTuple> {

  /** The rendered tiles. */
  public static final TupleTag<RenderedTile> RENDERED = new TupleTag<>() {};

  /** The tiles that failed, for the dead letter. */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  /** Counter of geometries that were invalid and repaired. */
  public static final String REPAIRED = "geometriesRepaired";

  private final Map<String, RenderSpec> specs;

  private ReprojectTiles(Map<String, RenderSpec> specs) {
    this.specs = Map.copyOf(specs);
  }

  /** Renders tiles with these specs, one per layer name. */
  public static ReprojectTiles withSpecs(Map<String, RenderSpec> specs) {
    return new ReprojectTiles(specs);
  }

  @Override
  public PCollectionTuple expand(PCollection<TileFeatures> input) {
    PCollectionTuple out =
        input.apply(
            "RenderTiles",
            ParDo.of(new RenderFn(specs)).withOutputTags(RENDERED, TupleTagList.of(FAILED)));
    out.get(RENDERED).setCoder(SerializableCoder.of(RenderedTile.class));
    out.get(FAILED).setCoder(SerializableCoder.of(TileFailure.class));
    return out;
  }

  private static final class RenderFn extends DoFn<TileFeatures, RenderedTile> {
    private final Map<String, RenderSpec> specs;
    private final Counter repaired = Metrics.counter(ReprojectTiles.class, REPAIRED);
    private transient Map<String, TileRenderer> renderers;

    RenderFn(Map<String, RenderSpec> specs) {
      this.specs = specs;
    }

    @Setup
    public void setup() {
      renderers = new HashMap<>();
      specs.forEach((layer, spec) -> renderers.put(layer, new TileRenderer(spec)));
    }

    @ProcessElement
    public void process(@Element TileFeatures tile, MultiOutputReceiver out) {
      TileRenderer renderer = renderers.get(tile.work().layer());
      try {
        RenderedTile rendered = renderer.render(tile);
        repaired.inc(rendered.repaired());
        out.get(RENDERED).output(rendered);
      } catch (TileDataException e) {
        out.get(FAILED)
            .output(new TileFailure(tile.key(), tile.work(), e.errorClass(), e.getMessage()));
      }
    }
  }
}
