package io.tilebeam.pipeline.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.ledger.LedgerIO;
import io.tilebeam.io.source.ReadFeatures;
import io.tilebeam.transforms.reproject.ReprojectTiles;
import io.tilebeam.transforms.tiling.PlanTiles;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricResults;
import org.apache.beam.sdk.metrics.MetricsFilter;

/**
 * What a run did, from its Beam counters: the JSON report of {@code --report} and the summary
 * printed at the end.
 */
public record RunReport(
    String runId,
    long planned,
    long duplicates,
    long skippedCompleted,
    long skippedInFlight,
    long skippedFailed,
    long claimed,
    long written,
    long unchanged,
    long failed,
    long lostClaims,
    long featuresRead,
    long featuresWritten,
    long piecesCut,
    long geometriesRepaired,
    long geometriesCleaned,
    long piecesCollapsed,
    long verticesWritten,
    long featuresEmpty,
    long featuresDeadLettered,
    long coordinatesOutsideDomain,
    long claimStatements,
    long commitStatements) {

  /** Reads the counters of a finished pipeline. */
  public static RunReport from(MetricResults metrics, String runId) {
    MetricQueryResults q = metrics.queryMetrics(MetricsFilter.builder().build());
    Map<String, Long> c = new HashMap<>();
    for (MetricResult<Long> r : q.getCounters()) {
      // Attempted values: Flink does not report committed ones, and the ledger, not the counters,
      // is the record of what was committed.
      c.merge(r.getName().getName(), r.getAttempted(), Long::sum);
    }
    return new RunReport(
        runId,
        c.getOrDefault(PlanTiles.PLANNED, 0L),
        c.getOrDefault(PlanTiles.DUPLICATES, 0L) + c.getOrDefault(LedgerIO.DUPLICATES, 0L),
        c.getOrDefault(LedgerIO.SKIPPED_COMPLETED, 0L),
        c.getOrDefault(LedgerIO.SKIPPED_IN_FLIGHT, 0L),
        c.getOrDefault(LedgerIO.SKIPPED_FAILED, 0L),
        c.getOrDefault(LedgerIO.CLAIMED, 0L),
        c.getOrDefault("written", 0L),
        c.getOrDefault("unchanged", 0L),
        c.getOrDefault(LedgerIO.FAILED, 0L),
        c.getOrDefault(LedgerIO.LOST_CLAIMS, 0L),
        c.getOrDefault(ReadFeatures.FEATURES_READ, 0L),
        c.getOrDefault("featuresWritten", 0L),
        c.getOrDefault(ReadFeatures.PIECES, 0L),
        c.getOrDefault(ReprojectTiles.REPAIRED, 0L),
        c.getOrDefault(ReprojectTiles.CLEANED, 0L),
        c.getOrDefault(ReprojectTiles.COLLAPSED, 0L),
        c.getOrDefault(ReprojectTiles.VERTICES, 0L),
        c.getOrDefault(ReadFeatures.FEATURES_EMPTY, 0L),
        c.getOrDefault(ReprojectTiles.DEAD_LETTERED, 0L),
        c.getOrDefault(ReadFeatures.OUTSIDE_DOMAIN, 0L),
        c.getOrDefault(LedgerIO.CLAIM_STATEMENTS, 0L),
        c.getOrDefault(LedgerIO.COMMIT_STATEMENTS, 0L));
  }

  /** The report as one JSON object. */
  public String toJson() {
    ObjectNode o = new ObjectMapper().createObjectNode();
    o.put("runId", runId);
    o.put("planned", planned);
    o.put("duplicates", duplicates);
    o.put("skippedCompleted", skippedCompleted);
    o.put("skippedInFlight", skippedInFlight);
    o.put("skippedFailed", skippedFailed);
    o.put("claimed", claimed);
    o.put("written", written);
    o.put("unchanged", unchanged);
    o.put("failed", failed);
    o.put("lostClaims", lostClaims);
    o.put("featuresRead", featuresRead);
    o.put("featuresWritten", featuresWritten);
    o.put("piecesCut", piecesCut);
    o.put("geometriesRepaired", geometriesRepaired);
    o.put("geometriesCleaned", geometriesCleaned);
    o.put("piecesCollapsed", piecesCollapsed);
    o.put("verticesWritten", verticesWritten);
    o.put("featuresEmpty", featuresEmpty);
    o.put("featuresDeadLettered", featuresDeadLettered);
    o.put("coordinatesOutsideDomain", coordinatesOutsideDomain);
    o.put("claimStatements", claimStatements);
    o.put("commitStatements", commitStatements);
    return o.toString();
  }

  /** A few lines for a person. */
  public String summary() {
    return String.format(
        "run %s: %d tiles planned; %d claimed, %d written, %d unchanged, %d failed;"
            + " skipped %d completed, %d in flight, %d failed earlier; %d duplicates;"
            + " %d features read, %d pieces cut, %d features written (%d vertices),"
            + " %d repaired, %d dead-lettered",
        runId,
        planned,
        claimed,
        written,
        unchanged,
        failed,
        skippedCompleted,
        skippedInFlight,
        skippedFailed,
        duplicates,
        featuresRead,
        piecesCut,
        featuresWritten,
        verticesWritten,
        geometriesRepaired,
        featuresDeadLettered);
  }
}
