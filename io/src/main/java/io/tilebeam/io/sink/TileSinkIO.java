package io.tilebeam.io.sink;

import io.tilebeam.io.Locations;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
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
 * Stage 6 of the graph, the idempotent sink: each rendered tile is encoded and published to its
 * deterministic final name through a temporary object (see {@link LocalTileSink}).
 *
 * <p>Publishing happens per tile inside the DoFn, which is marked {@code @RequiresStableInput} so
 * that a retried bundle publishes the same bytes; Beam's {@code WriteFiles} is not used because its
 * single finaliser renames a few hundred files a minute.
 *
 * <pre>{@code
 * PCollectionTuple published = rendered.apply("PublishTiles", TileSinkIO.publish(specs));
 * }</pre>
 */
public final class TileSinkIO {

  /** The tiles published. */
  public static final TupleTag<PublishResult> PUBLISHED = new TupleTag<>() {};

  /** Tiles whose output could not be encoded, for the dead letter. */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  private TileSinkIO() {}

  /** Publishes tiles with these specs, one per layer name. */
  public static Publish publish(Map<String, PublishSpec> specs) {
    return new Publish(specs);
  }

  /** The publishing transform; see {@link TileSinkIO}. */
  public static final class Publish
      extends PTransform<PCollection<RenderedTile>, PCollectionTuple> {
    private final Map<String, PublishSpec> specs;

    private Publish(Map<String, PublishSpec> specs) {
      this.specs = Map.copyOf(specs);
    }

    @Override
    public PCollectionTuple expand(PCollection<RenderedTile> input) {
      PCollectionTuple out =
          input.apply(
              "EncodeAndPublish",
              ParDo.of(new PublishFn(specs)).withOutputTags(PUBLISHED, TupleTagList.of(FAILED)));
      out.get(PUBLISHED).setCoder(SerializableCoder.of(PublishResult.class));
      out.get(FAILED).setCoder(SerializableCoder.of(TileFailure.class));
      return out;
    }
  }

  private static final class PublishFn extends DoFn<RenderedTile, PublishResult> {
    private final Map<String, PublishSpec> specs;
    private final Counter written = Metrics.counter(TileSinkIO.class, "written");
    private final Counter unchanged = Metrics.counter(TileSinkIO.class, "unchanged");
    private final Counter featuresWritten = Metrics.counter(TileSinkIO.class, "featuresWritten");
    private transient Map<String, LocalTileSink> sinks;

    PublishFn(Map<String, PublishSpec> specs) {
      this.specs = specs;
    }

    @Setup
    public void setup() {
      sinks = new HashMap<>();
      specs.forEach(
          (layer, spec) ->
              sinks.put(
                  layer, new LocalTileSink(Locations.localPath(spec.outputUri()), spec.format())));
    }

    @RequiresStableInput
    @ProcessElement
    public void process(@Element RenderedTile tile, MultiOutputReceiver out) throws IOException {
      PublishSpec spec = specs.get(tile.work().layer());
      TileFormat.Encoded encoded;
      try {
        encoded = spec.format().encode(tile, spec.targetCrs());
      } catch (IOException | RuntimeException e) {
        out.get(FAILED)
            .output(
                new TileFailure(tile.key(), tile.work(), "encode", String.valueOf(e.getMessage())));
        return;
      }
      // Storage errors are not data errors: they fail the bundle so the runner retries it.
      PublishResult result =
          sinks
              .get(tile.work().layer())
              .publish(tile.key(), tile.work(), encoded.bytes(), encoded.features());
      (result.outcome() == PublishResult.Outcome.WRITTEN ? written : unchanged).inc();
      featuresWritten.inc(result.featureCount());
      out.get(PUBLISHED).output(result);
    }
  }
}
