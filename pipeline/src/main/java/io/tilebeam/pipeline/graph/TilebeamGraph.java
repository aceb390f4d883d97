package io.tilebeam.pipeline.graph;

import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerIO;
import io.tilebeam.io.ledger.RunSettings;
import io.tilebeam.io.sink.DeadLetters;
import io.tilebeam.io.sink.PublishSpec;
import io.tilebeam.io.sink.TileSinkIO;
import io.tilebeam.io.source.ReadFeatures;
import io.tilebeam.io.source.SourceSpec;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import io.tilebeam.pipeline.job.RasterLayer;
import io.tilebeam.pipeline.job.VectorLayer;
import io.tilebeam.transforms.key.KeyWork;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileFailure;
import io.tilebeam.transforms.outcome.TileFailureCoder;
import io.tilebeam.transforms.outcome.TileOutcome;
import io.tilebeam.transforms.outcome.TileOutcomeCoder;
import io.tilebeam.transforms.raster.RasterSpec;
import io.tilebeam.transforms.raster.RenderRasters;
import io.tilebeam.transforms.reproject.RenderSpec;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import io.tilebeam.transforms.tiling.LayerCover;
import io.tilebeam.transforms.tiling.PlanTiles;
import io.tilebeam.transforms.tiling.PlannedTile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Partition;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Assembles the graph of DESIGN.md, one named stage per step:
 *
 * <pre>
 * PlanTiles → KeyWork → FilterAgainstLedger → ReadFeatures → ReprojectTiles → PublishTiles → CommitLedger
 * </pre>
 *
 * Tiles that failed in ReadFeatures (a source that cannot be read) or PublishTiles join the publish
 * results at CommitLedger, which marks them failed in the ledger.
 */
public final class TilebeamGraph {

  private TilebeamGraph() {}

  /** Adds the whole graph for {@code plan} to {@code pipeline}. */
  public static void build(
      Pipeline pipeline, JobPlan plan, LedgerConfig ledger, RunSettings settings) {
    Map<String, LayerCover> covers = new HashMap<>();
    Map<String, TileWork> templates = new HashMap<>();
    Map<String, SourceSpec> sources = new HashMap<>();
    Map<String, RenderSpec> renders = new HashMap<>();
    Map<String, RasterSpec> rasters = new HashMap<>();
    Map<String, PublishSpec> publishes = new HashMap<>();
    Map<String, PublishSpec> failureRecords = new HashMap<>();
    for (LayerPlan l : plan.layers()) {
      covers.put(l.name(), l.cover());
      templates.put(l.name(), l.template());
      publishes.put(l.name(), l.publish());
      failureRecords.put(l.name(), failureRecords(l));
      if (l instanceof RasterLayer r) {
        rasters.put(l.name(), r.raster());
      } else if (l instanceof VectorLayer v) {
        sources.put(l.name(), v.read());
        renders.put(l.name(), v.render());
      }
    }

    PCollection<PlannedTile> planned = pipeline.apply("PlanTiles", PlanTiles.ofCovers(covers));
    PCollection<KV<WorkKey, TileWork>> keyed =
        planned.apply("KeyWork", KeyWork.withTemplates(templates));
    PCollection<KV<WorkKey, TileWork>> claimed =
        keyed.apply("FilterAgainstLedger", LedgerIO.claim(ledger, settings));

    Ends ends = new Ends();
    if (rasters.isEmpty()) {
      vectorStages(claimed, sources, renders, publishes, ledger, settings, ends);
    } else {
      // Raster layers leave the vector stages at the claim: their tiles are read as pixels.
      PCollectionList<KV<WorkKey, TileWork>> byKind =
          claimed.apply("ByKind", Partition.of(2, new ByKind(new HashSet<>(rasters.keySet()))));
      if (!sources.isEmpty()) {
        vectorStages(byKind.get(0), sources, renders, publishes, ledger, settings, ends);
      }
      rasterStages(byKind.get(1), rasters, publishes, ledger, settings, ends);
    }

    // Features that could not be used cost themselves only: recorded, not failing their tile.
    // Those rendering found ride in their tile and leave PublishTiles.
    PCollectionList.of(ends.deadLetters)
        .apply("AllDeadLetters", Flatten.pCollections())
        .apply(
            "FeatureRecords",
            MapElements.into(layerLines())
                .via((FeatureFailure f) -> KV.of(f.layer(), f.toJsonLine())))
        .apply("RecordDeadLetters", DeadLetters.features(failureRecords));

    // A tile fails where its source cannot be read or where it cannot be published.
    PCollection<TileFailure> tileFailures =
        PCollectionList.of(ends.failures)
            .apply("AllTileFailures", Flatten.pCollections())
            .setCoder(TileFailureCoder.of());
    PCollectionList<TileOutcome> outcomes = PCollectionList.empty(pipeline);
    for (int i = 0; i < ends.published.size(); i++) {
      outcomes =
          outcomes.and(
              asOutcomes(i == 0 ? "AsCompletion" : "AsCompletion" + i, ends.published.get(i)));
    }
    outcomes
        .and(asOutcomes("AsFailure", tileFailures))
        .apply("Outcomes", Flatten.pCollections())
        .setCoder(TileOutcomeCoder.of())
        .apply("CommitLedger", LedgerIO.commit(ledger, settings));
    // A tile that failed for good is recorded beside its layer's output too, not only in the
    // ledger: where operators look for what did not make it.
    tileFailures
        .apply(
            "TileRecords",
            MapElements.into(layerLines())
                .via((TileFailure f) -> KV.of(f.work().layer(), f.toJsonLine())))
        .apply("RecordTileFailures", DeadLetters.tiles(failureRecords));
  }

  /**
   * Where a layer's dead letters and failed tiles are recorded: beside its tiles, and for an
   * archived layer beside its archive ({@code <output>/_failed/<layer>}), not in its staging area.
   */
  private static PublishSpec failureRecords(LayerPlan l) {
    PublishSpec p = l.publish();
    return l.archive() == null
        ? p
        : new PublishSpec(l.archive().location(), p.format(), p.targetCrs(), p.stores());
  }

  /** What the content stages hand on: dead letters, tile failures and published tiles. */
  private static final class Ends {
    final List<PCollection<FeatureFailure>> deadLetters = new ArrayList<>();
    final List<PCollection<TileFailure>> failures = new ArrayList<>();
    final List<PCollection<PublishResult>> published = new ArrayList<>();

    void publishedBy(PCollectionTuple publish) {
      deadLetters.add(publish.get(TileSinkIO.DEAD_LETTERS));
      failures.add(publish.get(TileSinkIO.FAILED));
      published.add(publish.get(TileSinkIO.PUBLISHED));
    }
  }

  /** ReadFeatures → ReprojectTiles → PublishTiles, for the claimed tiles of vector layers. */
  private static void vectorStages(
      PCollection<KV<WorkKey, TileWork>> claimed,
      Map<String, SourceSpec> sources,
      Map<String, RenderSpec> renders,
      Map<String, PublishSpec> publishes,
      LedgerConfig ledger,
      RunSettings settings,
      Ends ends) {
    PCollectionTuple read =
        claimed.apply(
            "ReadFeatures",
            ReadFeatures.from(sources, settings.retry()).withProgress(ledger, settings.runId()));
    PCollection<RenderedTile> rendered =
        read.get(ReadFeatures.TILES).apply("ReprojectTiles", ReprojectTiles.withSpecs(renders));
    ends.deadLetters.add(read.get(ReadFeatures.DEAD_LETTERS));
    ends.failures.add(read.get(ReadFeatures.FAILED));
    ends.publishedBy(
        rendered.apply("PublishTiles", TileSinkIO.publish(publishes, settings.runId(), ledger)));
  }

  /** RenderRasters → PublishRasters, for the claimed tiles of raster layers. */
  private static void rasterStages(
      PCollection<KV<WorkKey, TileWork>> claimed,
      Map<String, RasterSpec> rasters,
      Map<String, PublishSpec> publishes,
      LedgerConfig ledger,
      RunSettings settings,
      Ends ends) {
    PCollectionTuple rendered = claimed.apply("RenderRasters", RenderRasters.of(rasters));
    ends.failures.add(rendered.get(RenderRasters.FAILED));
    ends.publishedBy(
        rendered
            .get(RenderRasters.TILES)
            .apply("PublishRasters", TileSinkIO.publish(publishes, settings.runId(), ledger)));
  }

  /** Which stages a claimed tile goes to: 1 for a raster layer's, 0 for a vector layer's. */
  private static final class ByKind implements Partition.PartitionFn<KV<WorkKey, TileWork>> {
    private final Set<String> rasterLayers;

    ByKind(Set<String> rasterLayers) {
      this.rasterLayers = rasterLayers;
    }

    @Override
    public int partitionFor(KV<WorkKey, TileWork> claim, int partitions) {
      return rasterLayers.contains(claim.getValue().layer()) ? 1 : 0;
    }
  }

  private static TypeDescriptor<KV<String, String>> layerLines() {
    return TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.strings());
  }

  /** The same elements, seen as the outcomes CommitLedger takes. */
  private static <T extends TileOutcome> PCollection<TileOutcome> asOutcomes(
      String name, PCollection<T> outcomes) {
    return outcomes
        .apply(name, MapElements.into(TypeDescriptor.of(TileOutcome.class)).via((T o) -> o))
        .setCoder(TileOutcomeCoder.of());
  }
}
