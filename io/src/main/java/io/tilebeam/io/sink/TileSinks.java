package io.tilebeam.io.sink;

import io.tilebeam.io.ledger.LedgerConfig;
import java.io.IOException;

/** Opens the sink a {@link PublishSpec}'s location calls for. */
public final class TileSinks {

  private TileSinks() {}

  /**
   * A sink for {@code spec}, its temporary objects and ledger updates made as run {@code runId};
   * {@code ledger} lets a PostGIS sink in the ledger's database complete tiles in its transaction.
   *
   * @throws IOException when the output cannot be reached
   */
  public static TileSink open(PublishSpec spec, String runId, LedgerConfig ledger)
      throws IOException {
    OutputLocation location = spec.location();
    if (location instanceof OutputLocation.Local) {
      return new LocalTileSink(spec);
    }
    if (location instanceof OutputLocation.Gcs) {
      return new GcsTileSink(spec.gcs().open(), spec, runId, spec.gcs().retry());
    }
    if (location instanceof OutputLocation.S3) {
      return new S3TileSink(spec);
    }
    if (location instanceof OutputLocation.PostGis) {
      return new PostGisTileSink(spec, runId, ledger);
    }
    throw new IllegalArgumentException("no sink publishes to " + location.describe());
  }
}
