package io.tilebeam.transforms.reproject;

import io.tilebeam.transforms.feature.TilePieces;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;

/**
 * Stage 5 of the graph: each claimed tile's pieces are taken to the target CRS, rounded, checked,
 * repaired where needed and put in their final order ({@link TileRenderer}). A piece that cannot be
 * used goes to its tile's dead letters ({@link RenderedTile#deadLetters()}) with its id and reason;
 * its tile and the run go on. They ride with the tile, so this stage has one output: the next
 * stage, which passes them on, then runs in the same task (Flink encodes and decodes every element
 * between tasks, and a step with two outputs starts a new one).
 */
public final class ReprojectTiles
    extends PTransform<PCollection<TilePieces>, PCollection<RenderedTile>> {

  /** Counter of pieces that were invalid after rounding, made valid by any rung. */
  public static final String REPAIRED = "geometriesRepaired";

  /** Counter of pieces made valid by the cheap rung alone (spikes removed). */
  public static final String CLEANED = "geometriesCleaned";

  /** Counter of pieces with nothing left after rounding. */
  public static final String COLLAPSED = "piecesCollapsed";

  /** Prefix of the counters, one per zoom, of pieces that rounding collapsed to nothing. */
  public static final String COLLAPSED_AT = "piecesCollapsed.z";

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
  public PCollection<RenderedTile> expand(PCollection<TilePieces> input) {
    return input
        .apply("RenderTiles", ParDo.of(new RenderFn(specs)))
        .setCoder(RenderedTileCoder.of());
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
    public void process(@Element TilePieces tile, OutputReceiver<RenderedTile> out) {
      RenderedTile rendered = renderers.get(tile.work().layer()).render(tile);
      RenderStats s = rendered.stats();
      repaired.inc(s.cleaned() + s.repaired());
      cleaned.inc(s.cleaned());
      collapsed.inc(s.collapsed());
      if (s.collapsed() > 0) {
        // By zoom too: a piece smaller than the grid in one direction vanishes at low zooms.
        Metrics.counter(ReprojectTiles.class, COLLAPSED_AT + tile.work().tile().z())
            .inc(s.collapsed());
      }
      vertices.inc(s.vertices());
      deadLettered.inc(rendered.deadLetters().size());
      out.output(rendered);
    }
  }
}
