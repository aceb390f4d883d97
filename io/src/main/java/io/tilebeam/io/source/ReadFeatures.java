package io.tilebeam.io.source;

import io.tilebeam.io.ledger.RetryingLedger;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.TileFeatures;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import io.tilebeam.transforms.tiling.Bounds;
import io.tilebeam.transforms.tiling.TileId;
import java.io.EOFException;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Distinct;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Filter;
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
import org.locationtech.jts.io.ParseException;
import org.opengis.referencing.operation.TransformException;

/**
 * Stage 4 of the graph: the features of the claimed tiles ({@link #TILES}). Only claimed tiles
 * cause feature work, in one of two ways:
 *
 * <ul>
 *   <li>An indexed source (FlatGeobuf with its R-tree, PostGIS) is read per claimed tile: the
 *       tile's boxes in the source CRS are looked up, and each feature found is kept when the
 *       placement rule puts it in the tile ({@link FeaturePlacement#covers}).
 *   <li>An unindexed source (GeoJSON, GeoJSONSeq, FlatGeobuf without an index) is read once, in
 *       parallel splits; each feature is assigned to the tiles it may fall in and joined to the
 *       claimed tiles by tile reference. A layer with no claimed tile is not read at all.
 * </ul>
 *
 * Both paths apply the same rule, so a tile gets the same features whichever way its source is
 * read. A feature that cannot be read or placed goes to {@link #DEAD_LETTERS} with its id and
 * reason; a tile whose source cannot be read (a truncated file, a failing query) goes to {@link
 * #FAILED}; the rest go on.
 */
public final class ReadFeatures
    extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollectionTuple> {

  /** The claimed tiles with their features. */
  public static final TupleTag<TileFeatures> TILES = new TupleTag<>() {};

  /** Features that could not be read or placed. */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  /** Claimed tiles whose source could not be read. */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  /** Counter of features read from sources. */
  public static final String FEATURES_READ = "featuresRead";

  private static final TupleTag<KV<String, TileInput>> ASSIGNED = new TupleTag<>() {};

  private final Map<String, SourceSpec> sources;
  private final RetryPolicy retry;

  private ReadFeatures(Map<String, SourceSpec> sources, RetryPolicy retry) {
    this.sources = Map.copyOf(sources);
    this.retry = retry;
  }

  /** Reads the sources of these layers, one spec per layer name. */
  public static ReadFeatures from(Map<String, SourceSpec> sources) {
    return from(sources, RetryPolicy.DEFAULT);
  }

  /**
   * Reads the sources of these layers, retrying source queries that fail in a way that may pass
   * under {@code retry}.
   */
  public static ReadFeatures from(Map<String, SourceSpec> sources, RetryPolicy retry) {
    return new ReadFeatures(sources, retry);
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<WorkKey, TileWork>> claimed) {
    Set<String> indexed = new TreeSet<>();
    sources.forEach(
        (layer, spec) -> {
          if (spec.indexed()) {
            indexed.add(layer);
          }
        });
    List<PCollection<TileFeatures>> tiles = new ArrayList<>();
    List<PCollection<FeatureFailure>> deadLetters = new ArrayList<>();
    List<PCollection<TileFailure>> failed = new ArrayList<>();
    if (indexed.size() < sources.size()) {
      PCollectionTuple joined =
          joinUnindexed(
              claimed.apply(
                  "UnindexedLayers", Filter.by(kv -> !indexed.contains(kv.getValue().layer()))));
      tiles.add(joined.get(TILES));
      deadLetters.add(joined.get(DEAD_LETTERS));
    }
    if (!indexed.isEmpty()) {
      PCollectionTuple perTile =
          claimed
              .apply("IndexedLayers", Filter.by(kv -> indexed.contains(kv.getValue().layer())))
              .apply(
                  "ReadPerTile",
                  ParDo.of(new ReadTileFn(sources, retry))
                      .withOutputTags(TILES, TupleTagList.of(DEAD_LETTERS).and(FAILED)));
      tiles.add(perTile.get(TILES).setCoder(SerializableCoder.of(TileFeatures.class)));
      deadLetters.add(
          perTile.get(DEAD_LETTERS).setCoder(SerializableCoder.of(FeatureFailure.class)));
      failed.add(perTile.get(FAILED).setCoder(SerializableCoder.of(TileFailure.class)));
    }
    Pipeline p = claimed.getPipeline();
    return PCollectionTuple.of(TILES, flatten(p, "AllTiles", tiles, TileFeatures.class))
        .and(DEAD_LETTERS, flatten(p, "AllDeadLetters", deadLetters, FeatureFailure.class))
        .and(FAILED, flatten(p, "AllFailed", failed, TileFailure.class));
  }

  private static <T extends java.io.Serializable> PCollection<T> flatten(
      Pipeline p, String name, List<PCollection<T>> parts, Class<T> type) {
    SerializableCoder<T> coder = SerializableCoder.of(type);
    if (parts.isEmpty()) {
      return p.apply(name, Create.empty(coder));
    }
    return PCollectionList.of(parts).apply(name, Flatten.pCollections()).setCoder(coder);
  }

  /** The single pass over unindexed sources, joined to the claimed tiles by tile reference. */
  private PCollectionTuple joinUnindexed(PCollection<KV<WorkKey, TileWork>> claimed) {
    List<SourceSplit> splits = new ArrayList<>();
    for (Map.Entry<String, SourceSpec> e : sources.entrySet()) {
      if (!e.getValue().indexed()) {
        splits.addAll(SourceSplit.of(e.getKey(), e.getValue()));
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

  /** A feature that cannot be placed: the dead letter naming its id and why. */
  static FeatureFailure unplaceable(String layer, String featureId, Exception e) {
    // A coordinate the operation cannot place (a pole in Web Mercator) costs its feature.
    return new FeatureFailure(
        layer, featureId, "", "transform", "cannot be placed: " + e.getMessage());
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
      FeaturePlacement placement = new FeaturePlacement(spec);
      Consumer<Feature> assign =
          original -> {
            read.inc();
            FeaturePlacement.Placed placed;
            Iterable<TileId> tiles;
            try {
              placed = placement.prepare(original);
              tiles = placement.tiles(placed);
            } catch (ParseException | TransformException | IllegalArgumentException e) {
              deadLettered.inc();
              c.output(DEAD_LETTERS, unplaceable(layer, original.id(), e));
              return;
            }
            if (placed.geometry().isEmpty()) {
              empty.inc();
            }
            for (TileId tile : tiles) {
              c.output(KV.of(tileRef(layer, tile), TileInput.of(placed.feature())));
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
      switch (spec.format()) {
        case "geojson" -> {
          GeoJsonSource source = new GeoJsonSource(spec.file());
          source.forEach(assign, reject);
          repaired.inc(source.ringsClosed());
        }
        case "geojsonseq" -> {
          GeoJsonSeqSource source = new GeoJsonSeqSource(spec.file());
          source.forEach(part.range(), assign, reject);
          repaired.inc(source.ringsClosed());
        }
        default -> {
          FlatGeobufSource source = FlatGeobufSource.open(spec.file(), spec.idColumn());
          source.forEach(assign, reject);
          repaired.inc(source.ringsClosed());
        }
      }
    }
  }

  /**
   * Reads each claimed tile's features from its indexed source. Open files and connections are kept
   * for the life of the DoFn instance: the index pages near the root serve every tile.
   */
  private static final class ReadTileFn extends DoFn<KV<WorkKey, TileWork>, TileFeatures> {
    private final Map<String, SourceSpec> sources;
    private final Counter read = Metrics.counter(ReadFeatures.class, FEATURES_READ);
    private final Counter repaired = Metrics.counter(ReadFeatures.class, ReprojectTiles.REPAIRED);
    private final Counter deadLettered =
        Metrics.counter(ReadFeatures.class, ReprojectTiles.DEAD_LETTERED);
    private final RetryPolicy retry;
    private transient Map<String, FlatGeobufSource> files;
    private transient Map<String, PostGisFeatures> tables;

    ReadTileFn(Map<String, SourceSpec> sources, RetryPolicy retry) {
      this.sources = sources;
      this.retry = retry;
    }

    @Setup
    public void setup() {
      files = new HashMap<>();
      tables = new HashMap<>();
    }

    @ProcessElement
    public void process(@Element KV<WorkKey, TileWork> claim, MultiOutputReceiver out)
        throws IOException, SQLException {
      TileWork work = claim.getValue();
      String layer = work.layer();
      SourceSpec spec = sources.get(layer);
      FeaturePlacement placement = new FeaturePlacement(spec);
      List<Feature> kept = new ArrayList<>();
      List<FeatureFailure> bad = new ArrayList<>();
      Consumer<Feature> keep =
          f -> {
            read.inc();
            try {
              FeaturePlacement.Placed placed = placement.prepare(f);
              if (placement.covers(placed, work.tile())) {
                kept.add(placed.feature());
              }
            } catch (ParseException | TransformException | IllegalArgumentException e) {
              bad.add(unplaceable(layer, f.id(), e));
            }
          };
      Consumer<GeoJsonSource.BadFeature> reject =
          b -> {
            read.inc();
            bad.add(new FeatureFailure(layer, b.featureId(), "", "geometry", b.reason()));
          };
      try {
        List<Bounds> boxes = placement.searchBoxes(work.tile());
        if (spec.table() != null) {
          table(layer, spec).forEachIn(boxes, keep, reject);
        } else {
          FlatGeobufSource file = file(layer, spec);
          long closedBefore = file.ringsClosed();
          file.forEachIn(boxes, keep, reject);
          repaired.inc(file.ringsClosed() - closedBefore);
        }
      } catch (SourceFormatException | EOFException e) {
        // This tile's data cannot be read; a failure that may pass fails the bundle instead.
        out.get(FAILED)
            .output(
                new TileFailure(claim.getKey(), work, "source", String.valueOf(e.getMessage())));
        return;
      } catch (SQLException e) {
        if (RetryingLedger.passes(e)) {
          throw e;
        }
        out.get(FAILED)
            .output(
                new TileFailure(claim.getKey(), work, "source", String.valueOf(e.getMessage())));
        return;
      }
      deadLettered.inc(bad.size());
      bad.forEach(f -> out.get(DEAD_LETTERS).output(f));
      out.get(TILES).output(new TileFeatures(claim.getKey(), work, kept));
    }

    private FlatGeobufSource file(String layer, SourceSpec spec) throws IOException {
      FlatGeobufSource f = files.get(layer);
      if (f == null) {
        f = FlatGeobufSource.open(spec.file(), spec.idColumn());
        files.put(layer, f);
      }
      return f;
    }

    private PostGisFeatures table(String layer, SourceSpec spec) {
      return tables.computeIfAbsent(layer, l -> new PostGisFeatures(spec.table(), retry));
    }

    @Teardown
    public void teardown() throws SQLException {
      if (tables != null) {
        for (PostGisFeatures t : tables.values()) {
          t.close();
        }
      }
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
