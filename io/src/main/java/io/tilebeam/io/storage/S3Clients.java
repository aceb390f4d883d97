package io.tilebeam.io.storage;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3 client per set of settings, shared by every source read in this process: a client holds a
 * connection pool and is safe for any number of threads, and the ranged reads of a source are many
 * and small. The clients live as long as the process.
 */
public final class S3Clients {

  private static final Map<S3Settings, S3Client> SHARED = new ConcurrentHashMap<>();

  private S3Clients() {}

  /** The process's client for {@code settings}. */
  public static S3Client shared(S3Settings settings) {
    return SHARED.computeIfAbsent(settings, S3Settings::open);
  }
}
