package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.FeatureFailureCoder;
import java.util.HashMap;
import java.util.Map;
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
 * Stage 5 of the graph: each claimed tile's pieces are taken to the target CRS, rounded, checked,
 * repaired where needed and put in their final order ({@link TileRenderer}). A piece that cannot be
 * used goes to {@link #DEAD_LETTERS} with its id and reason; its tile and the run go on.
 */
public final class ReprojectTiles extends PTransform<PCollection<TilePieces>, PCollectionTuple> {

  /** The rendered tiles. */
  public static final TupleTag<RenderedTile> RENDERED = new TupleTag<>() {};

  /** Features that could not be used, for the dead letter. */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  /** Counter of pieces that were invalid after rounding, made valid by any rung. */
  public static final String REPAIRED = "geometriesRepaired";

  /** Counter of pieces made valid by the cheap rung alone (spikes removed). */
  public static final String CLEANED = "geometriesCleaned";

  /** Counter of pieces with nothing left after rounding. */
  public static final String COLLAPSED = "piecesCollapsed";

  /** Counter of vertices written. */
  public static final String VERTICES = "verticesWritten";

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
  public PCollectionTuple expand(PCollection<TilePieces> input) {
    PCollectionTuple out =
        input.apply(
            "RenderTiles",
            ParDo.of(new RenderFn(specs)).withOutputTags(RENDERED, TupleTagList.of(DEAD_LETTERS)));
    out.get(RENDERED).setCoder(RenderedTileCoder.of());
    out.get(DEAD_LETTERS).setCoder(FeatureFailureCoder.of());
    return out;
  }

  private static final class RenderFn extends DoFn<TilePieces, RenderedTile> {
    private final Map<String, RenderSpec> specs;
    private final Counter repaired = Metrics.counter(ReprojectTiles.class, REPAIRED);
    private final Counter cleaned = Metrics.counter(ReprojectTiles.class, CLEANED);
    private final Counter collapsed = Metrics.counter(ReprojectTiles.class, COLLAPSED);
    private final Counter vertices = Metrics.counter(ReprojectTiles.class, VERTICES);
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
    public void process(@Element TilePieces tile, MultiOutputReceiver out) {
      RenderedTile rendered = renderers.get(tile.work().layer()).render(tile);
      RenderStats s = rendered.stats();
      repaired.inc(s.cleaned() + s.repaired());
      cleaned.inc(s.cleaned());
      collapsed.inc(s.collapsed());
      vertices.inc(s.vertices());
      deadLettered.inc(rendered.deadLetters().size());
      rendered.deadLetters().forEach(f -> out.get(DEAD_LETTERS).output(f));
      out.get(RENDERED).output(rendered);
    }
  }
}
