package io.tilebeam.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.ledger.LedgerIO;
import io.tilebeam.io.ledger.ZoomCounts;
import io.tilebeam.io.sink.TileSinkIO;
import io.tilebeam.io.source.ReadFeatures;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import io.tilebeam.transforms.tiling.PlanTiles;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * What a run did, from its Beam counters: the JSON report of {@code --report} and the summary
 * printed at the end. Each figure is named once, in {@link #FIGURES}, with the counters it is read
 * from; the counters' names are the constants of the stages that count them.
 *
 * @param runId the run
 * @param figures every figure of {@link #FIGURES}, by name, in that order
 * @param skippedColumns by layer, the source columns left out of its features' properties (lists,
 *     maps, INT96 timestamps of a GeoParquet source); layers that leave none out are absent
 * @param belowMinSize by zoom, features left out of that zoom's tiles because every part of them
 *     there was smaller than the layer's minimum size (zooms with none absent); their sum is the
 *     figure {@code featuresBelowMinSize}
 * @param collapsed by zoom, pieces that rounding collapsed to nothing (zooms with none absent);
 *     their sum is the figure {@code piecesCollapsed}
 */
public record RunReport(
    String runId,
    Map<String, Long> figures,
    Map<String, List<String>> skippedColumns,
    ZoomCounts belowMinSize,
    ZoomCounts collapsed) {

  /** A figure of the report: its name in the JSON and how it is read from the counters. */
  private record Figure(String name, ToLongFunction<Counters> read) {}

  /** The counters of a run by name, absent ones zero. */
  private record Counters(Map<String, Long> byName) {
    long get(String name) {
      return byName.getOrDefault(name, 0L);
    }
  }

  /** The report's figures, in the order the JSON lists them. */
  private static final List<Figure> FIGURES =
      List.of(
          counted("planned", PlanTiles.PLANNED),
          new Figure("duplicates", c -> c.get(PlanTiles.DUPLICATES) + c.get(LedgerIO.DUPLICATES)),
          counted("skippedCompleted", LedgerIO.SKIPPED_COMPLETED),
          counted("skippedInFlight", LedgerIO.SKIPPED_IN_FLIGHT),
          counted("skippedFailed", LedgerIO.SKIPPED_FAILED),
          counted("claimed", LedgerIO.CLAIMED),
          counted("written", TileSinkIO.WRITTEN),
          counted("unchanged", TileSinkIO.UNCHANGED),
          counted("failed", LedgerIO.FAILED),
          counted("lostClaims", LedgerIO.LOST_CLAIMS),
          counted("featuresRead", ReadFeatures.FEATURES_READ),
          counted("featuresWritten", TileSinkIO.FEATURES_WRITTEN),
          counted("piecesCut", ReadFeatures.PIECES),
          counted("geometriesRepaired", ReprojectTiles.REPAIRED),
          counted("geometriesCleaned", ReprojectTiles.CLEANED),
          counted("piecesCollapsed", ReprojectTiles.COLLAPSED),
          counted("verticesWritten", ReprojectTiles.VERTICES),
          counted("featuresEmpty", ReadFeatures.FEATURES_EMPTY),
          new Figure("featuresBelowMinSize", c -> belowMinSize(c).total()),
          counted("featuresDeadLettered", ReprojectTiles.DEAD_LETTERED),
          counted("coordinatesOutsideDomain", ReadFeatures.OUTSIDE_DOMAIN),
          counted("rowGroupsSkipped", ReadFeatures.ROW_GROUPS_SKIPPED),
          counted("claimStatements", LedgerIO.CLAIM_STATEMENTS),
          counted("commitStatements", LedgerIO.COMMIT_STATEMENTS));

  /** Copies the figures and columns, keeping their order. */
  public RunReport {
    figures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    skippedColumns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(skippedColumns));
  }

  /** The counts by zoom of features left out as smaller than the minimum size. */
  private static ZoomCounts belowMinSize(Counters c) {
    return ZoomCounts.ofCounters(c.byName(), ReadFeatures.BELOW_MIN_SIZE);
  }

  /** The same report, naming the columns each layer left out of its properties. */
  public RunReport withSkippedColumns(Map<String, List<String>> columns) {
    return new RunReport(runId, figures, columns, belowMinSize, collapsed);
  }

  private static Figure counted(String name, String counter) {
    return new Figure(name, c -> c.get(counter));
  }

  /** Reads the counters of a finished pipeline. */
  public static RunReport from(MetricResults metrics, String runId) {
    MetricQueryResults q = metrics.queryMetrics(MetricsFilter.builder().build());
    Map<String, Long> c = new HashMap<>();
    for (MetricResult<Long> r : q.getCounters()) {
      // Attempted values: Flink does not report committed ones, and the ledger, not the counters,
      // is the record of what was committed.
      c.merge(r.getName().getName(), r.getAttempted(), Long::sum);
    }
    Counters counters = new Counters(c);
    Map<String, Long> figures = new LinkedHashMap<>();
    FIGURES.forEach(f -> figures.put(f.name(), f.read().applyAsLong(counters)));
    return new RunReport(
        runId,
        figures,
        Map.of(),
        belowMinSize(counters),
        ZoomCounts.ofCounters(c, ReprojectTiles.COLLAPSED_AT));
  }

  /**
   * The report of a run that started no pipeline: every planned tile was completed, in flight or
   * failed already, so nothing was claimed, read or written.
   */
  public static RunReport skippedAll(
      String runId,
      long planned,
      long duplicates,
      long completed,
      long inFlight,
      long failedEarlier) {
    Map<String, Long> figures = new LinkedHashMap<>();
    FIGURES.forEach(f -> figures.put(f.name(), 0L));
    figures.put("planned", planned);
    figures.put("duplicates", duplicates);
    figures.put("skippedCompleted", completed);
    figures.put("skippedInFlight", inFlight);
    figures.put("skippedFailed", failedEarlier);
    return new RunReport(runId, figures, Map.of(), ZoomCounts.NONE, ZoomCounts.NONE);
  }

  /** A figure by its name in the report. */
  public long figure(String name) {
    Long value = figures.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no figure " + name + " in a run report");
    }
    return value;
  }

  /** Tiles that failed in this run. */
  public long failed() {
    return figure("failed");
  }

  /** The report as one JSON object. */
  public String toJson() {
    ObjectNode o = new ObjectMapper().createObjectNode();
    o.put("runId", runId);
    figures.forEach(o::put);
    o.set("featuresBelowMinSizeByZoom", belowMinSize.toJsonNode());
    o.set("piecesCollapsedByZoom", collapsed.toJsonNode());
    ObjectNode columns = o.putObject("skippedColumns");
    skippedColumns.forEach(
        (layer, names) -> {
          com.fasterxml.jackson.databind.node.ArrayNode list = columns.putArray(layer);
          names.forEach(list::add);
        });
    return o.toString();
  }

  /** A few lines for a person. */
  public String summary() {
    String dropped =
        belowMinSize.isEmpty()
            ? ""
            : "; features below the minimum size: " + belowMinSize.describe();
    return String.format(
            "run %s: %d tiles planned; %d claimed, %d written, %d unchanged, %d failed;"
                + " skipped %d completed, %d in flight, %d failed earlier; %d duplicates;"
                + " %d features read, %d pieces cut, %d features written (%d vertices),"
                + " %d repaired, %d dead-lettered",
            runId,
            figure("planned"),
            figure("claimed"),
            figure("written"),
            figure("unchanged"),
            figure("failed"),
            figure("skippedCompleted"),
            figure("skippedInFlight"),
            figure("skippedFailed"),
            figure("duplicates"),
            figure("featuresRead"),
            figure("piecesCut"),
            figure("featuresWritten"),
            figure("verticesWritten"),
            figure("geometriesRepaired"),
            figure("featuresDeadLettered"))
        + dropped;
  }
}
