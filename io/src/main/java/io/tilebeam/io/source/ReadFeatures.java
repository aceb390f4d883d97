package io.tilebeam.io.source;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureCutter;
import io.tilebeam.transforms.feature.TilePieces;
import io.tilebeam.transforms.feature.TilePiecesCoder;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.TileWorkCoder;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.key.WorkKeyCoder;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.FeatureFailureCoder;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.SerializableCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Combine;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Filter;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.Values;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.PCollectionView;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Stage 4 of the graph: the pieces of the claimed tiles ({@link #TILES}). Only claimed tiles cause
 * feature work, and only pieces travel: each feature is read once (per pass or per group), taken to
 * the matrix set's CRS once and cut for every claimed tile of every zoom ({@link FeatureCutter}),
 * so the bytes moved grow with the output, never with vertices × tiles. Sources are read one of two
 * ways:
 *
 * <ul>
 *   <li>An unindexed source (GeoJSON, GeoJSONSeq, FlatGeobuf without an index) is read once, in
 *       parallel splits, with the claimed tiles of every layer at hand ({@link ClaimedTiles}); a
 *       layer with no claimed tile is not read at all.
 *   <li>An indexed source (FlatGeobuf with its R-tree, PostGIS) is read per group of claimed tiles
 *       ({@link TileGroups}): one index look-up per group, each feature found read and cut once for
 *       the group's tiles.
 * </ul>
 *
 * Pieces and claims meet in one join by tile. Both ways cut with the same rule, so a tile gets the
 * same pieces whichever way its source is read. A feature that cannot be read or placed goes to
 * {@link #DEAD_LETTERS} with its id and reason; the tiles of a group whose source cannot be read (a
 * truncated file, a failing query) go to {@link #FAILED}; the rest go on.
 */
public final class ReadFeatures
    extends PTransform<PCollection<KV<WorkKey, TileWork>>, PCollectionTuple> {

  /** The claimed tiles with their pieces. */
  public static final TupleTag<TilePieces> TILES = new TupleTag<>() {};

  /** Features that could not be read or placed. */
  public static final TupleTag<FeatureFailure> DEAD_LETTERS = new TupleTag<>() {};

  /** Claimed tiles whose source could not be read. */
  public static final TupleTag<TileFailure> FAILED = new TupleTag<>() {};

  /** Counter of features read from sources. */
  public static final String FEATURES_READ = "featuresRead";

  /** Counter of features with an empty geometry, skipped. */
  public static final String FEATURES_EMPTY = "featuresEmpty";

  /** Counter of pieces cut for claimed tiles. */
  public static final String PIECES = "piecesCut";

  /**
   * Prefix of the counters, one per zoom ({@link #belowMinSizeCounter}), of features left out of a
   * zoom's tiles because every part of them there was smaller than the layer's minimum size.
   */
  public static final String BELOW_MIN_SIZE = "featuresBelowMinSize.z";

  /** The counter of features left out of zoom {@code z} as smaller than the minimum size. */
  public static String belowMinSizeCounter(int z) {
    return BELOW_MIN_SIZE + z;
  }

  /** Counter of row groups (GeoParquet) left unread because their bbox statistics meet no tile. */
  public static final String ROW_GROUPS_SKIPPED = "rowGroupsSkipped";

  /** Counter of source coordinates outside the source CRS's domain of validity. */
  public static final String OUTSIDE_DOMAIN = "coordinatesOutsideDomain";

  /** Pieces and claims keyed by tile, on their way to the join. */
  static final TupleTag<KV<String, TileInput>> INPUTS = new TupleTag<>() {};

  /** Parts of whole files, read where they are received ({@link SplitReader#parts}). */
  static final TupleTag<SourceSplit> PARTS = new TupleTag<>() {};

  private final Map<String, SplitRead> inSplits;
  private final Map<String, IndexRead> byIndex;
  private final RetryPolicy retry;
  private final LedgerConfig progressLedger;
  private final String runId;

  private ReadFeatures(
      Map<String, SplitRead> inSplits,
      Map<String, IndexRead> byIndex,
      RetryPolicy retry,
      LedgerConfig ledger,
      String runId) {
    this.inSplits = inSplits;
    this.byIndex = byIndex;
    this.retry = retry;
    this.progressLedger = ledger;
    this.runId = runId;
  }

  /**
   * The same reading, adding features read and pieces cut to run {@code runId}'s progress in {@code
   * ledger} as it goes.
   */
  public ReadFeatures withProgress(LedgerConfig ledger, String runId) {
    return new ReadFeatures(inSplits, byIndex, retry, ledger, runId);
  }

  private FeatureCutting cutting() {
    return new FeatureCutting(progressLedger, runId);
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
    Map<String, SplitRead> inSplits = new TreeMap<>();
    Map<String, IndexRead> byIndex = new TreeMap<>();
    // The one place the reading stage looks at how a source is read.
    sources.forEach(
        (layer, spec) -> {
          if (spec.source() instanceof IndexedSource indexed) {
            byIndex.put(layer, new IndexRead(indexed, spec.cut()));
          } else if (spec.source() instanceof SplitSource split) {
            inSplits.put(layer, new SplitRead(split, spec.cut()));
          }
        });
    return new ReadFeatures(Map.copyOf(inSplits), Map.copyOf(byIndex), retry, null, null);
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<WorkKey, TileWork>> claimed) {
    Set<String> indexed = new TreeSet<>(byIndex.keySet());
    Pipeline p = claimed.getPipeline();
    List<PCollection<KV<String, TileInput>>> inputs = new ArrayList<>();
    List<PCollection<FeatureFailure>> deadLetters = new ArrayList<>();
    List<PCollection<TileFailure>> failed = new ArrayList<>();
    if (!inSplits.isEmpty()) {
      PCollectionTuple read =
          readInOnePass(
              claimed.apply(
                  "UnindexedLayers", Filter.by(kv -> !indexed.contains(kv.getValue().layer()))));
      inputs.add(read.get(INPUTS));
      deadLetters.add(read.get(DEAD_LETTERS));
    }
    if (!indexed.isEmpty()) {
      PCollectionTuple read =
          readByGroup(
              claimed.apply(
                  "IndexedLayers", Filter.by(kv -> indexed.contains(kv.getValue().layer()))));
      inputs.add(read.get(INPUTS));
      deadLetters.add(read.get(DEAD_LETTERS));
      failed.add(read.get(FAILED));
    }
    PCollectionTuple collected =
        PCollectionList.of(inputs)
            .apply("Inputs", Flatten.pCollections())
            .setCoder(inputCoder())
            .apply("JoinByTile", GroupByKey.create())
            .apply(
                "CollectTiles",
                ParDo.of(new CollectTilesFn()).withOutputTags(TILES, TupleTagList.of(FAILED)));
    PCollection<TilePieces> tiles = collected.get(TILES).setCoder(TilePiecesCoder.of());
    failed.add(collected.get(FAILED).setCoder(TileFailureCoder.of()));
    return PCollectionTuple.of(TILES, tiles)
        .and(DEAD_LETTERS, flatten(p, "AllDeadLetters", deadLetters, FeatureFailureCoder.of()))
        .and(FAILED, flatten(p, "AllFailed", failed, TileFailureCoder.of()));
  }

  private static KvCoder<String, TileInput> inputCoder() {
    return KvCoder.of(StringUtf8Coder.of(), TileInputCoder.of());
  }

  private static <T> PCollection<T> flatten(
      Pipeline p, String name, List<PCollection<T>> parts, Coder<T> coder) {
    if (parts.isEmpty()) {
      return p.apply(name, Create.empty(coder));
    }
    return PCollectionList.of(parts).apply(name, Flatten.pCollections()).setCoder(coder);
  }

  /**
   * The splits of a layer's unindexed source.
   *
   * @throws UncheckedIOException when the source cannot be sized
   */
  private static List<SourceSplit> splitsOf(String layer, SplitSource source) {
    try {
      return source.splits(layer);
    } catch (IOException e) {
      throw new UncheckedIOException("layer " + layer + ": cannot split its source: " + e, e);
    }
  }

  /** Unindexed sources: one pass over each file, in splits, cut for the claimed tiles. */
  private PCollectionTuple readInOnePass(PCollection<KV<WorkKey, TileWork>> claimed) {
    List<SourceSplit> splits = new ArrayList<>();
    inSplits.forEach((layer, read) -> splits.addAll(splitsOf(layer, read.source())));
    PCollectionView<ClaimedTiles> claimedTiles =
        claimed
            .apply("ClaimedWork", Values.create())
            .apply("GatherClaimed", Combine.globally(ClaimedTiles.gather()).asSingletonView());
    // A source read from its start is cut into parts to be spread; without one, the read has no
    // such output, so that the runner can stream pieces straight on (Flink batch makes a branch
    // that joins again, as that output would, a blocking exchange: one more pass over every piece
    // after the reading ends).
    boolean spreadsParts = splits.stream().anyMatch(s -> s.range() == null);
    PCollectionTuple read =
        claimed
            .getPipeline()
            .apply("Splits", Create.of(splits).withCoder(SerializableCoder.of(SourceSplit.class)))
            // Splits of one file are read on different workers.
            .apply("SpreadSplits", Reshuffle.viaRandomKey())
            .apply(
                "ReadSplits",
                ParDo.of(new ReadSplitFn(inSplits, retry, claimedTiles, cutting()))
                    .withSideInputs(claimedTiles)
                    .withOutputTags(
                        INPUTS,
                        spreadsParts
                            ? TupleTagList.of(DEAD_LETTERS).and(PARTS)
                            : TupleTagList.of(DEAD_LETTERS)));
    read.get(INPUTS).setCoder(inputCoder());
    read.get(DEAD_LETTERS).setCoder(FeatureFailureCoder.of());
    PCollectionList<KV<String, TileInput>> pieces = PCollectionList.of(read.get(INPUTS));
    PCollectionList<FeatureFailure> deadLetters = PCollectionList.of(read.get(DEAD_LETTERS));
    if (spreadsParts) {
      // A file cut into parts by one worker; every worker reads and cuts the parts it gets.
      PCollectionTuple parts =
          read.get(PARTS)
              .setCoder(SerializableCoder.of(SourceSplit.class))
              .apply("SpreadParts", Reshuffle.viaRandomKey())
              .apply(
                  "ReadParts",
                  ParDo.of(new ReadSplitFn(inSplits, retry, claimedTiles, cutting()))
                      .withSideInputs(claimedTiles)
                      .withOutputTags(INPUTS, TupleTagList.of(DEAD_LETTERS)));
      parts.get(INPUTS).setCoder(inputCoder());
      parts.get(DEAD_LETTERS).setCoder(FeatureFailureCoder.of());
      pieces = pieces.and(parts.get(INPUTS));
      deadLetters = deadLetters.and(parts.get(DEAD_LETTERS));
    }
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
                                (TileInput) new TileInput.Claim(kv.getKey(), kv.getValue()))))
            .setCoder(inputCoder());
    return PCollectionTuple.of(
            INPUTS,
            PCollectionList.of(claims)
                .and(pieces.getAll())
                .apply("ClaimsAndPieces", Flatten.pCollections())
                .setCoder(inputCoder()))
        .and(
            DEAD_LETTERS,
            deadLetters
                .apply("ReadDeadLetters", Flatten.pCollections())
                .setCoder(FeatureFailureCoder.of()));
  }

  /** Indexed sources: claimed tiles gathered into groups, each group's features read once. */
  private PCollectionTuple readByGroup(PCollection<KV<WorkKey, TileWork>> claimed) {
    Map<String, IndexRead> specs = byIndex;
    KvCoder<WorkKey, TileWork> claimCoder = KvCoder.of(WorkKeyCoder.of(), TileWorkCoder.of());
    PCollectionTuple read =
        claimed
            .apply(
                "ByGroup",
                MapElements.into(
                        TypeDescriptors.kvs(
                            TypeDescriptors.strings(),
                            TypeDescriptors.kvs(
                                TypeDescriptor.of(WorkKey.class),
                                TypeDescriptor.of(TileWork.class))))
                    .via(
                        kv -> {
                          TileWork w = kv.getValue();
                          TileId a = TileGroups.ancestor(w.tile(), specs.get(w.layer()).cut());
                          return KV.of(tileRef(w.layer(), a), kv);
                        }))
            .setCoder(KvCoder.of(StringUtf8Coder.of(), claimCoder))
            .apply("GatherGroups", GroupByKey.create())
            .apply(
                "ReadGroups",
                ParDo.of(new ReadGroupFn(specs, retry, cutting()))
                    .withOutputTags(INPUTS, TupleTagList.of(DEAD_LETTERS).and(FAILED)));
    read.get(INPUTS).setCoder(inputCoder());
    read.get(DEAD_LETTERS).setCoder(FeatureFailureCoder.of());
    read.get(FAILED).setCoder(TileFailureCoder.of());
    return read;
  }

  /** A layer read in splits: its source and how its features are cut. */
  record SplitRead(SplitSource source, CutSpec cut) implements java.io.Serializable {}

  /** A layer read per group of claimed tiles through its source's index. */
  record IndexRead(IndexedSource source, CutSpec cut) implements java.io.Serializable {}

  static String tileRef(String layer, TileId tile) {
    return layer + "/" + tile.path();
  }
}
