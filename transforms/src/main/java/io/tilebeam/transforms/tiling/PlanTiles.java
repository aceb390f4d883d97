package io.tilebeam.transforms.tiling;

import java.util.List;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;

/**
 * Stage 1 of the graph: every layer's extents become the distinct tiles that cover them.
 *
 * <pre>{@code
 * PCollection<PlannedTile> tiles = p.apply("PlanTiles", PlanTiles.of(layers));
 * }</pre>
 */
public final class PlanTiles extends PTransform<PBegin, PCollection<PlannedTile>> {

  /** Counter of planned tiles (after overlapping extents are merged). */
  public static final String PLANNED = "planned";

  /** Counter of tiles that overlapping extents of one layer repeated. */
  public static final String DUPLICATES = "duplicates";

  private final List<LayerTiling> layers;

  private PlanTiles(List<LayerTiling> layers) {
    this.layers = List.copyOf(layers);
  }

  /** Plans the tiles of these layers. */
  public static PlanTiles of(List<LayerTiling> layers) {
    if (layers.isEmpty()) {
      throw new IllegalArgumentException("PlanTiles needs at least one layer");
    }
    return new PlanTiles(layers);
  }

  @Override
  public PCollection<PlannedTile> expand(PBegin input) {
    return input
        .apply("Layers", Create.of(layers).withCoder(SerializableCoder.of(LayerTiling.class)))
        .apply("CoverExtents", ParDo.of(new CoverFn()))
        .setCoder(PlannedTileCoder.of())
        // One layer is enumerated by one worker; spread its tiles before the per-tile stages.
        .apply("Spread", Reshuffle.viaRandomKey());
  }

  private static final class CoverFn extends DoFn<LayerTiling, PlannedTile> {
    private final Counter planned = Metrics.counter(PlanTiles.class, PLANNED);
    private final Counter duplicates = Metrics.counter(PlanTiles.class, DUPLICATES);

    @ProcessElement
    public void process(@Element LayerTiling layer, OutputReceiver<PlannedTile> out) {
      LayerCover cover = layer.cover();
      duplicates.inc(cover.duplicates());
      cover.forEachTile(
          tile -> {
            planned.inc();
            out.output(new PlannedTile(layer.layer(), tile));
          });
    }
  }
}
