package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.outcome.FeatureFailure;
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
 * final order ({@link TileRenderer}). A feature that cannot be used goes to {@link #DEAD_LETTERS}
 * with its id and reason; its tile and the run go on.
 */
public final class ReprojectTiles extends PTransform<PCollection<TileFeatures>, PCollectionTuple> {

  /** The rendered tiles. */
  public static final TupleTag<RenderedTile> RENDERED = new TupleTag<>() {};

  /** Features that could not be used, for the dead letter. */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  /** Counter of geometries that were invalid and repaired. */
  public static final String REPAIRED = "geometriesRepaired";

  /** Counter of features with an empty geometry, skipped. */
  public static final String EMPTY = "featuresEmpty";

  /** Counter of coordinates outside the source CRS's domain of validity. */
  public static final String OUTSIDE_DOMAIN = "coordinatesOutsideDomain";

  /** Counter of features sent to the dead letter. */
  public static final String DEAD_LETTERED = "featuresDeadLettered";

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
            ParDo.of(new RenderFn(specs)).withOutputTags(RENDERED, TupleTagList.of(DEAD_LETTERS)));
    out.get(RENDERED).setCoder(SerializableCoder.of(RenderedTile.class));
    out.get(DEAD_LETTERS).setCoder(SerializableCoder.of(FeatureFailure.class));
    return out;
  }

  private static final class RenderFn extends DoFn<TileFeatures, RenderedTile> {
    private final Map<String, RenderSpec> specs;
    private final Counter repaired = Metrics.counter(ReprojectTiles.class, REPAIRED);
    private final Counter empty = Metrics.counter(ReprojectTiles.class, EMPTY);
    private final Counter outsideDomain = Metrics.counter(ReprojectTiles.class, OUTSIDE_DOMAIN);
    private final Counter deadLettered = Metrics.counter(ReprojectTiles.class, DEAD_LETTERED);
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
      RenderedTile rendered = renderers.get(tile.work().layer()).render(tile);
      repaired.inc(rendered.repaired());
      empty.inc(rendered.empty());
      outsideDomain.inc(rendered.outsideDomain());
      deadLettered.inc(rendered.deadLetters().size());
      rendered.deadLetters().forEach(f -> out.get(DEAD_LETTERS).output(f));
      out.get(RENDERED).output(rendered);
    }
  }
}
