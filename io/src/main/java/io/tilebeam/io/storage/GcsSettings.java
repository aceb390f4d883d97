package io.tilebeam.io.storage;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.io.Serializable;
import java.util.Set;

/**
 * How to reach Google Cloud Storage: the endpoint (none for Google's own, with Application Default
 * Credentials) and how transient errors are retried. The client's own retries are turned off:
 * tilebeam retries itself, so that every call is retried the same way and tests can see it.
 *
 * @param endpoint an emulator's or stand-in's base URL, or {@code null} for Google's service
 * @param projectId the project for an endpoint without credentials, or {@code null}
 * @param retry how transient errors are retried
 */
public record GcsSettings(String endpoint, String projectId, RetryPolicy retry)
    implements Serializable {

  /**
   * The environment variable naming a storage emulator, as Google's client libraries read it
   * ({@code host:port} or a URL).
   */
  public static final String EMULATOR_ENV = "STORAGE_EMULATOR_HOST";

  /** Status codes worth retrying: timeouts, throttling and server errors. */
  private static final Set<Integer> TRANSIENT = Set.of(408, 429, 500, 502, 503, 504);

  /** Checks the retry policy is set. */
  public GcsSettings {
    if (retry == null) {
      throw new IllegalArgumentException("a retry policy is required");
    }
  }

  /**
   * Google's service, or the emulator {@code STORAGE_EMULATOR_HOST} names (system property {@code
   * tilebeam.gcs.endpoint} first, for tests in one JVM).
   */
  public static GcsSettings fromEnvironment() {
    String endpoint = System.getProperty("tilebeam.gcs.endpoint", System.getenv(EMULATOR_ENV));
    if (endpoint == null || endpoint.isBlank()) {
      return new GcsSettings(null, null, RetryPolicy.DEFAULT);
    }
    String url = endpoint.contains("://") ? endpoint : "http://" + endpoint;
    return new GcsSettings(url, "tilebeam", RetryPolicy.DEFAULT);
  }

  /** The same settings with another retry policy. */
  public GcsSettings withRetry(RetryPolicy policy) {
    return new GcsSettings(endpoint, projectId, policy);
  }

  /** A client for these settings. */
  public Storage open() {
    StorageOptions.Builder b =
        StorageOptions.http().setRetrySettings(ServiceOptions.getNoRetrySettings());
    if (endpoint != null) {
      b.setHost(endpoint).setCredentials(NoCredentials.getInstance());
      b.setProjectId(projectId == null ? "tilebeam" : projectId);
    }
    return b.build().getService();
  }

  /** Closes a client; its close only shuts down idle connections, so a failure there is noise. */
  public static void closeQuietly(Storage storage) {
    try {
      storage.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // Nothing is lost: the client held no unfinished work.
    }
  }

  /**
   * Whether a failed call may succeed if repeated: a retryable status, or a connection that broke
   * before an answer came (status 0 with an I/O cause).
   */
  public static boolean isTransient(Exception e) {
    if (!(e instanceof StorageException se)) {
      return false;
    }
    if (TRANSIENT.contains(se.getCode())) {
      return true;
    }
    return se.getCode() == 0 && causedByIo(se);
  }

  private static boolean causedByIo(Throwable t) {
    for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
      if (c instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
