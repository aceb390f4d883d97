package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.tiling.FeatureTiles;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.transforms.join.CoGbkResult;
import org.apache.beam.sdk.transforms.join.CoGroupByKey;
import org.apache.beam.sdk.transforms.join.KeyedPCollectionTuple;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.opengis.referencing.operation.TransformException;

/**
 * Stage 4 of the graph: the features of the claimed tiles. An unindexed source (GeoJSON) is read
 * once; each feature is assigned to the tiles it may fall in and joined to the claimed tiles by
 * tile reference, so only claimed tiles go on to feature work.
 */
public final class ReadFeatures
    extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollection<TileFeatures>> {

  /** Counter of features read from sources. */
  public static final String FEATURES_READ = "featuresRead";

  private static final TupleTag<KV<WorkKey, TileWork>> CLAIMED = new TupleTag<>() {};
  private static final TupleTag<Feature> FEATURES = new TupleTag<>() {};

  private final Map<String, SourceSpec> sources;

  private ReadFeatures(Map<String, SourceSpec> sources) {
    this.sources = Map.copyOf(sources);
  }

  /** Reads the sources of these layers, one spec per layer name. */
  public static ReadFeatures from(Map<String, SourceSpec> sources) {
    return new ReadFeatures(sources);
  }

  @Override
  public PCollection<TileFeatures> expand(PCollection<KV<WorkKey, TileWork>> claimed) {
    for (Map.Entry<String, SourceSpec> e : sources.entrySet()) {
      if (!e.getValue().format().equals("geojson")) {
        throw new IllegalArgumentException(
            "layer "
                + e.getKey()
                + ": source format '"
                + e.getValue().format()
                + "' is not supported yet (supported: geojson)");
      }
    }
    // A rerun of finished work must cost only ledger look-ups: layers with no claimed tile are
    // not read at all.
    PCollectionView<List<String>> claimedLayers =
        claimed
            .apply(
                "ClaimedLayer",
                MapElements.into(TypeDescriptors.strings()).via(kv -> kv.getValue().layer()))
            .apply("DistinctLayers", Distinct.create())
            .apply("AsView", View.asList());
    PCollection<KV<String, Feature>> features =
        claimed
            .getPipeline()
            .apply("Layers", Create.of(new ArrayList<>(sources.keySet())))
            .apply(
                "ReadAndAssign",
                ParDo.of(new ReadAndAssignFn(sources, claimedLayers)).withSideInputs(claimedLayers))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(Feature.class)));
    PCollection<KV<String, KV<WorkKey, TileWork>>> byTile =
        claimed
            .apply(
                "ByTile",
                MapElements.into(
                        TypeDescriptors.kvs(
                            TypeDescriptors.strings(),
                            TypeDescriptors.kvs(
                                org.apache.beam.sdk.values.TypeDescriptor.of(WorkKey.class),
                                org.apache.beam.sdk.values.TypeDescriptor.of(TileWork.class))))
                    .via(kv -> KV.of(tileRef(kv.getValue().layer(), kv.getValue().tile()), kv)))
            .setCoder(
                KvCoder.of(
                    StringUtf8Coder.of(), KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of())));
    return KeyedPCollectionTuple.of(CLAIMED, byTile)
        .and(FEATURES, features)
        .apply("JoinByTile", CoGroupByKey.create())
        .apply("CollectTiles", ParDo.of(new CollectFn()))
        .setCoder(SerializableCoder.of(TileFeatures.class));
  }

  static String tileRef(String layer, TileId tile) {
    return layer + "/" + tile.path();
  }

  private static final class ReadAndAssignFn extends DoFn<String, KV<String, Feature>> {
    private final Map<String, SourceSpec> sources;
    private final PCollectionView<List<String>> claimedLayers;
    private final Counter read = Metrics.counter(ReadFeatures.class, FEATURES_READ);

    ReadAndAssignFn(Map<String, SourceSpec> sources, PCollectionView<List<String>> claimedLayers) {
      this.sources = sources;
      this.claimedLayers = claimedLayers;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      String layer = c.element();
      if (!c.sideInput(claimedLayers).contains(layer)) {
        return;
      }
      SourceSpec spec = sources.get(layer);
      WKBReader reader = new WKBReader();
      new GeoJsonSource(spec.path())
          .forEach(
              feature -> {
                read.inc();
                for (TileId tile : tilesOf(reader, spec, feature)) {
                  c.output(KV.of(tileRef(layer, tile), feature));
                }
              });
    }

    private static Iterable<TileId> tilesOf(WKBReader reader, SourceSpec spec, Feature feature) {
      try {
        return FeatureTiles.of(
            reader.read(feature.wkb()),
            spec.crs(),
            spec.tileMatrixSet(),
            spec.minZoom(),
            spec.maxZoom(),
            spec.bufferPixels());
      } catch (ParseException | TransformException e) {
        throw new SourceFormatException(
            spec.uri() + ": feature " + feature.id() + " cannot be placed: " + e.getMessage(), e);
      }
    }
  }

  private static final class CollectFn extends DoFn<KV<String, CoGbkResult>, TileFeatures> {
    @ProcessElement
    public void process(@Element KV<String, CoGbkResult> joined, OutputReceiver<TileFeatures> out) {
      List<Feature> features = null;
      for (KV<WorkKey, TileWork> work : joined.getValue().getAll(CLAIMED)) {
        if (features == null) {
          features = new ArrayList<>();
          joined.getValue().getAll(FEATURES).forEach(features::add);
        }
        out.output(new TileFeatures(work.getKey(), work.getValue(), features));
      }
    }
  }
}
