package io.tilebeam.transforms.key;

import io.tilebeam.transforms.tiling.PlannedTile;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Stage 2 of the graph: each planned tile becomes its {@link TileWork}, keyed by its {@link
 * WorkKey}. The per-layer template holds everything but the tile.
 */
public final class KeyWork
    extends PTransform<PCollection<PlannedTile>, PCollection<KV<WorkKey, TileWork>>> {

  private final Map<String, TileWork> templates;

  private KeyWork(Map<String, TileWork> templates) {
    this.templates = Map.copyOf(templates);
  }

  /**
   * Keys tiles with these templates, one per layer name; a template's tile is replaced by each
   * planned tile.
   */
  public static KeyWork withTemplates(Map<String, TileWork> templates) {
    return new KeyWork(templates);
  }

  @Override
  public PCollection<KV<WorkKey, TileWork>> expand(PCollection<PlannedTile> input) {
    return input
        .apply("ComputeKeys", ParDo.of(new KeyFn(templates)))
        .setCoder(KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of()));
  }

  private static final class KeyFn extends DoFn<PlannedTile, KV<WorkKey, TileWork>> {
    private final Map<String, TileWork> templates;
    private transient Map<String, KeyHasher> hashers;

    KeyFn(Map<String, TileWork> templates) {
      this.templates = templates;
    }

    @Setup
    public void setup() {
      hashers = new HashMap<>();
      templates.forEach((layer, template) -> hashers.put(layer, KeyHasher.of(template)));
    }

    @ProcessElement
    public void process(@Element PlannedTile planned, OutputReceiver<KV<WorkKey, TileWork>> out) {
      KeyHasher hasher = hashers.get(planned.layer());
      if (hasher == null) {
        throw new IllegalStateException("no key template for layer " + planned.layer());
      }
      out.output(KV.of(hasher.key(planned.tile()), hasher.work(planned.tile())));
    }
  }
}
