package io.tilebeam.io.storage;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.Serializable;

/**
 * How the object stores a job may name are reached: Google Cloud Storage ({@code gs://}) and S3 or
 * an S3-compatible store ({@code s3://}). Read from the planning process's environment once and
 * carried with the job's specs to every worker, so that all of them use the same endpoints
 * (credentials stay with each process).
 *
 * @param gcs how Google Cloud Storage is reached
 * @param s3 how S3 is reached
 */
public record Stores(GcsSettings gcs, S3Settings s3) implements Serializable {

  /** Checks both are set. */
  public Stores {
    if (gcs == null || s3 == null) {
      throw new IllegalArgumentException("both stores' settings are required");
    }
  }

  /** The stores this process's environment names, every call retried by {@code retry}. */
  public static Stores fromEnvironment(RetryPolicy retry) {
    return new Stores(
        GcsSettings.fromEnvironment().withRetry(retry),
        S3Settings.fromEnvironment().withRetry(retry));
  }

  /** {@code gcs}, and S3 as the environment names it with the same retries. */
  public static Stores of(GcsSettings gcs) {
    return new Stores(gcs, S3Settings.fromEnvironment().withRetry(gcs.retry()));
  }

  /** {@code s3}, and GCS as the environment names it with the same retries. */
  public static Stores of(S3Settings s3) {
    return new Stores(GcsSettings.fromEnvironment().withRetry(s3.retry()), s3);
  }
}
