package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Antimeridian;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import io.tilebeam.transforms.tiling.FeatureTiles;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.View;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.opengis.referencing.operation.TransformException;

/**
 * Stage 4 of the graph: the features of the claimed tiles ({@link #TILES}). An unindexed source
 * (GeoJSON) is read once; each feature is assigned to the tiles it may fall in and joined to the
 * claimed tiles by tile reference, so only claimed tiles go on to feature work. A feature that
 * cannot be read or placed goes to {@link #DEAD_LETTERS} with its id and reason; the rest go on.
 */
public final class ReadFeatures
    extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollectionTuple> {

  /** The claimed tiles with their features. */
  public static final TupleTag<TileFeatures> TILES = new TupleTag<>() {};

  /** Features that could not be read or placed. */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  /** Counter of features read from sources. */
  public static final String FEATURES_READ = "featuresRead";

  private static final TupleTag<KV<String, TileInput>> ASSIGNED = new TupleTag<>() {};

  private final Map<String, SourceSpec> sources;

  private ReadFeatures(Map<String, SourceSpec> sources) {
    this.sources = Map.copyOf(sources);
  }

  /** Reads the sources of these layers, one spec per layer name. */
  public static ReadFeatures from(Map<String, SourceSpec> sources) {
    return new ReadFeatures(sources);
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<WorkKey, TileWork>> claimed) {
    List<SourceSplit> splits = new ArrayList<>();
    for (Map.Entry<String, SourceSpec> e : sources.entrySet()) {
      splits.addAll(SourceSplit.of(e.getKey(), e.getValue()));
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
    PCollectionTuple read =
        claimed
            .getPipeline()
            .apply("Splits", Create.of(splits).withCoder(SerializableCoder.of(SourceSplit.class)))
            // Splits of one file are read on different workers.
            .apply("SpreadSplits", Reshuffle.viaRandomKey())
            .apply(
                "ReadAndAssign",
                ParDo.of(new ReadAndAssignFn(sources, claimedLayers))
                    .withSideInputs(claimedLayers)
                    .withOutputTags(ASSIGNED, TupleTagList.of(DEAD_LETTERS)));
    KvCoder<String, TileInput> inputCoder =
        KvCoder.of(StringUtf8Coder.of(), SerializableCoder.of(TileInput.class));
    PCollection<KV<String, TileInput>> features = read.get(ASSIGNED).setCoder(inputCoder);
    PCollection<FeatureFailure> deadLetters =
        read.get(DEAD_LETTERS).setCoder(SerializableCoder.of(FeatureFailure.class));
    PCollection<KV<String, TileInput>> claims =
        claimed
            .apply(
                "ByTile",
                MapElements.into(
                        TypeDescriptors.kvs(
                            TypeDescriptors.strings(), TypeDescriptor.of(TileInput.class)))
                    .via(
                        kv ->
                            KV.of(
                                tileRef(kv.getValue().layer(), kv.getValue().tile()),
                                TileInput.claim(kv.getKey(), kv.getValue()))))
            .setCoder(inputCoder);
    PCollection<TileFeatures> tiles =
        PCollectionList.of(claims)
            .and(features)
            .apply("Inputs", Flatten.pCollections())
            .apply("JoinByTile", GroupByKey.create())
            .apply("CollectTiles", ParDo.of(new CollectFn()))
            .setCoder(SerializableCoder.of(TileFeatures.class));
    return PCollectionTuple.of(TILES, tiles).and(DEAD_LETTERS, deadLetters);
  }

  static String tileRef(String layer, TileId tile) {
    return layer + "/" + tile.path();
  }

  private static final class ReadAndAssignFn extends DoFn<SourceSplit, KV<String, TileInput>> {
    private final Map<String, SourceSpec> sources;
    private final PCollectionView<List<String>> claimedLayers;
    private final Counter read = Metrics.counter(ReadFeatures.class, FEATURES_READ);
    private final Counter empty = Metrics.counter(ReadFeatures.class, ReprojectTiles.EMPTY);
    private final Counter repaired = Metrics.counter(ReadFeatures.class, ReprojectTiles.REPAIRED);
    private final Counter deadLettered =
        Metrics.counter(ReadFeatures.class, ReprojectTiles.DEAD_LETTERED);

    ReadAndAssignFn(Map<String, SourceSpec> sources, PCollectionView<List<String>> claimedLayers) {
      this.sources = sources;
      this.claimedLayers = claimedLayers;
    }

    @ProcessElement
    public void process(ProcessContext c) throws IOException {
      SourceSplit part = c.element();
      String layer = part.layer();
      if (!c.sideInput(claimedLayers).contains(layer)) {
        return;
      }
      SourceSpec spec = sources.get(layer);
      WKBReader reader = new WKBReader();
      WKBWriter writer = new WKBWriter(2);
      boolean geographic = Antimeridian.appliesTo(spec.crs());
      Consumer<Feature> assign =
          original -> {
            read.inc();
            Feature feature = original;
            Iterable<TileId> tiles;
            try {
              // The WKB is read once here: to cut it at the antimeridian and to place it.
              Geometry g = reader.read(original.wkb());
              if (geographic) {
                Geometry split = Antimeridian.split(g);
                if (split != g) {
                  feature = new Feature(original.id(), writer.write(split), original.properties());
                  g = split;
                }
              }
              tiles = tilesOf(g, spec);
            } catch (ParseException | TransformException | IllegalArgumentException e) {
              // A coordinate the operation cannot place (a pole in Web Mercator) costs its feature.
              deadLettered.inc();
              c.output(
                  DEAD_LETTERS,
                  new FeatureFailure(
                      layer,
                      original.id(),
                      "",
                      "transform",
                      "cannot be placed: " + e.getMessage()));
              return;
            }
            for (TileId tile : tiles) {
              c.output(KV.of(tileRef(layer, tile), TileInput.of(feature)));
            }
          };
      Consumer<GeoJsonSource.BadFeature> reject =
          bad -> {
            read.inc();
            deadLettered.inc();
            c.output(
                DEAD_LETTERS,
                new FeatureFailure(layer, bad.featureId(), "", "geometry", bad.reason()));
          };
      if (part.range() == null) {
        GeoJsonSource source = new GeoJsonSource(spec.file());
        source.forEach(assign, reject);
        repaired.inc(source.ringsClosed());
      } else {
        GeoJsonSeqSource source = new GeoJsonSeqSource(spec.file());
        source.forEach(part.range(), assign, reject);
        repaired.inc(source.ringsClosed());
      }
    }

    /**
     * The tiles a geometry may fall in; none for an empty geometry, which is counted. In a
     * geographic source it has been cut at ±180° first ({@link Antimeridian}), so that it lands in
     * the right tiles on each side.
     */
    private Iterable<TileId> tilesOf(Geometry g, SourceSpec spec) throws TransformException {
      if (g.isEmpty()) {
        empty.inc();
        return List.of();
      }
      return FeatureTiles.of(
          g, spec.crs(), spec.tileMatrixSet(), spec.minZoom(), spec.maxZoom(), spec.bufferPixels());
    }
  }

  private static final class CollectFn extends DoFn<KV<String, Iterable<TileInput>>, TileFeatures> {
    @ProcessElement
    public void process(
        @Element KV<String, Iterable<TileInput>> joined, OutputReceiver<TileFeatures> out) {
      // One pass over the group: a runner may not let a large group be iterated twice.
      List<Feature> features = new ArrayList<>();
      List<TileInput> claims = new ArrayList<>(1);
      for (TileInput in : joined.getValue()) {
        if (in.feature() != null) {
          features.add(in.feature());
        } else {
          claims.add(in);
        }
      }
      for (TileInput claim : claims) {
        out.output(new TileFeatures(claim.key(), claim.work(), features));
      }
    }
  }
}
