package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;

/**
 * A tile that reached its final location: where, with what checksum ({@code sha256:<hex>}) and how
 * many features, and whether this attempt wrote it or found the same bytes already published.
 */
public record PublishResult(
    WorkKey key, TileWork work, String uri, String checksum, long featureCount, Outcome outcome)
    implements TileOutcome {

  /** What publishing did. */
  public enum Outcome {
    /** The bytes were moved onto the final name. */
    WRITTEN,
    /** The final name already held the same bytes; nothing was replaced. */
    UNCHANGED
  }
}
