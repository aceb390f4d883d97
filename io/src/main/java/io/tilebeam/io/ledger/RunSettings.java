package io.tilebeam.io.ledger;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.Serializable;
import java.time.Duration;

/**
 * How a run's graph meets the ledger and the world, for FilterAgainstLedger, ReadFeatures and
 * CommitLedger alike: its run id (the owner of its claims), the stale window after which another
 * run's claim may be taken over, the keys per claim or commit statement, the number of state
 * shards, whether failed tiles are claimed again, and how calls that fail in a way that may pass
 * (ledger statements, source queries) are retried.
 */
public record RunSettings(
    String runId,
    Duration staleAfter,
    int batchSize,
    int shards,
    boolean retryFailed,
    RetryPolicy retry)
    implements Serializable {

  /** The keys per claim statement when none is set. */
  public static final int DEFAULT_BATCH_SIZE = 500;

  /**
   * The state shards when none is set. Each shard claims and commits its last, partial batch on its
   * own, so round trips per run are at most ceil(tiles / batch) + shards per stage: few shards keep
   * that constant small, and one 500-key statement per shard is plenty of parallelism.
   */
  public static final int DEFAULT_SHARDS = 4;

  /** Checks every field. */
  public RunSettings {
    if (runId == null || runId.isBlank()) {
      throw new IllegalArgumentException("runId is required");
    }
    if (staleAfter == null || staleAfter.isNegative() || staleAfter.isZero()) {
      throw new IllegalArgumentException("staleAfter must be positive, was " + staleAfter);
    }
    if (batchSize < 1 || batchSize > 10_000) {
      throw new IllegalArgumentException("batchSize must be in [1, 10000], was " + batchSize);
    }
    if (shards < 1 || shards > 4096) {
      throw new IllegalArgumentException("shards must be in [1, 4096], was " + shards);
    }
    if (retry == null) {
      throw new IllegalArgumentException("a retry policy is required");
    }
  }

  /** Settings retrying ledger statements under {@link RetryPolicy#DEFAULT}. */
  public RunSettings(
      String runId, Duration staleAfter, int batchSize, int shards, boolean retryFailed) {
    this(runId, staleAfter, batchSize, shards, retryFailed, RetryPolicy.DEFAULT);
  }

  /** Settings with the default batch size and shard count. */
  public static RunSettings of(String runId, Duration staleAfter) {
    return new RunSettings(runId, staleAfter, DEFAULT_BATCH_SIZE, DEFAULT_SHARDS, false);
  }

  /** The same settings with another batch size. */
  public RunSettings withBatchSize(int size) {
    return new RunSettings(runId, staleAfter, size, shards, retryFailed, retry);
  }

  /** The same settings with another number of state shards. */
  public RunSettings withShards(int count) {
    return new RunSettings(runId, staleAfter, batchSize, count, retryFailed, retry);
  }

  /** The same settings, claiming tiles that failed permanently in earlier runs too. */
  public RunSettings withRetryFailed(boolean retryAll) {
    return new RunSettings(runId, staleAfter, batchSize, shards, retryAll, retry);
  }

  /** The same settings, retrying ledger statements under {@code policy}. */
  public RunSettings withRetry(RetryPolicy policy) {
    return new RunSettings(runId, staleAfter, batchSize, shards, retryFailed, policy);
  }
}
