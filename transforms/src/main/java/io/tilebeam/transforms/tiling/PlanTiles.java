package io.tilebeam.transforms.tiling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.values.KV;
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

  private final Map<String, LayerCover> covers;

  private PlanTiles(Map<String, LayerCover> covers) {
    if (covers.isEmpty()) {
      throw new IllegalArgumentException("PlanTiles needs at least one layer");
    }
    this.covers = new TreeMap<>(covers);
  }

  /** Plans the tiles of these layers, covering their extents now. */
  public static PlanTiles of(List<LayerTiling> layers) {
    Map<String, LayerCover> covers = new TreeMap<>();
    layers.forEach(l -> covers.put(l.layer(), l.cover()));
    return new PlanTiles(covers);
  }

  /** Plans the tiles of layers already covered (by the planner, which keeps each cover). */
  public static PlanTiles ofCovers(Map<String, LayerCover> covers) {
    return new PlanTiles(covers);
  }

  @Override
  public PCollection<PlannedTile> expand(PBegin input) {
    List<KV<String, LayerCover>> layers = new ArrayList<>();
    covers.forEach((layer, cover) -> layers.add(KV.of(layer, cover)));
    return input
        .apply(
            "Layers",
            Create.of(layers)
                .withCoder(
                    KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(LayerCover.class))))
        .apply("CoverExtents", ParDo.of(new CoverFn()))
        .setCoder(PlannedTileCoder.of())
        // One layer is enumerated by one worker; spread its tiles before the per-tile stages.
        .apply("Spread", Reshuffle.viaRandomKey());
  }

  private static final class CoverFn extends DoFn<KV<String, LayerCover>, PlannedTile> {
    private final Counter planned = Metrics.counter(PlanTiles.class, PLANNED);
    private final Counter duplicates = Metrics.counter(PlanTiles.class, DUPLICATES);

    @ProcessElement
    public void process(@Element KV<String, LayerCover> layer, OutputReceiver<PlannedTile> out) {
      LayerCover cover = layer.getValue();
      duplicates.inc(cover.duplicates());
      cover.forEachTile(
          tile -> {
            planned.inc();
            out.output(new PlannedTile(layer.getKey(), tile));
          });
    }
  }
}
