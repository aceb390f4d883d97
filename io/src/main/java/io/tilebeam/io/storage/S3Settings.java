package io.tilebeam.io.storage;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * How to reach S3 or an S3-compatible store: the endpoint (none for AWS itself), the region,
 * whether buckets are addressed by path ({@code endpoint/bucket/key}, which most S3-compatible
 * servers want) and how transient errors are retried. Credentials are not part of it: every process
 * takes them from the AWS SDK's default chain (environment, system properties, profile files,
 * container or instance roles), so they are never written into a job, a log or a staged pipeline.
 * The SDK's own retries are turned off: tilebeam retries itself, the same way for every store.
 *
 * @param endpoint the endpoint's base URL, or {@code null} for AWS's regional endpoints
 * @param region the signing region, such as {@code us-east-1}
 * @param pathStyle whether buckets are addressed by path instead of by host name
 * @param retry how transient errors are retried
 */
public record S3Settings(String endpoint, String region, boolean pathStyle, RetryPolicy retry)
    implements Serializable {

  /** The system property (for tests in one JVM) and environment variables naming an endpoint. */
  public static final String ENDPOINT_PROPERTY = "tilebeam.s3.endpoint";

  /** The AWS SDK's own variables for an S3 endpoint, the S3-specific one first. */
  private static final String[] ENDPOINT_ENV = {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"};

  /** Set to {@code false} to address buckets by host name on a custom endpoint. */
  public static final String PATH_STYLE_ENV = "TILEBEAM_S3_PATH_STYLE";

  /** Status codes worth retrying: timeouts, throttling and server errors. */
  private static final Set<Integer> TRANSIENT = Set.of(408, 429, 500, 502, 503, 504);

  /**
   * Error codes of a 400 that a fresh attempt cures: bytes damaged on the way (their checksum does
   * not match) and a request body that came too slowly.
   */
  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "BadDigest",
          "XAmzContentChecksumMismatch",
          "XAmzContentSHA256Mismatch",
          "RequestTimeout");

  /** An attempt that takes longer than this is abandoned (and retried as a broken connection). */
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(60);

  /** Checks every field. */
  public S3Settings {
    if (endpoint != null) {
      URI uri;
      try {
        uri = URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("S3 endpoint '" + endpoint + "' is not a URL", e);
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        throw new IllegalArgumentException(
            "S3 endpoint '" + endpoint + "' must be an http:// or https:// URL with a host");
      }
    }
    if (region == null || !region.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("S3 region '" + region + "' is not a region name");
    }
    if (retry == null) {
      throw new IllegalArgumentException("a retry policy is required");
    }
  }

  /**
   * The settings of this process's environment: the endpoint from {@code tilebeam.s3.endpoint},
   * {@code AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL} (none: AWS), the region from {@code
   * aws.region} or {@code AWS_REGION} ({@code us-east-1} when none is set), path-style addressing
   * on a custom endpoint unless {@code TILEBEAM_S3_PATH_STYLE=false}.
   */
  public static S3Settings fromEnvironment() {
    String endpoint = System.getProperty(ENDPOINT_PROPERTY);
    for (int i = 0; (endpoint == null || endpoint.isBlank()) && i < ENDPOINT_ENV.length; i++) {
      endpoint = System.getenv(ENDPOINT_ENV[i]);
    }
    if (endpoint != null && endpoint.isBlank()) {
      endpoint = null;
    }
    String region = System.getProperty("aws.region", System.getenv("AWS_REGION"));
    if (region == null || region.isBlank()) {
      region = System.getenv("AWS_DEFAULT_REGION");
    }
    boolean pathStyle =
        endpoint != null && !"false".equalsIgnoreCase(System.getenv(PATH_STYLE_ENV));
    return new S3Settings(
        endpoint,
        region == null || region.isBlank() ? "us-east-1" : region.strip(),
        pathStyle,
        RetryPolicy.DEFAULT);
  }

  /** The same settings with another retry policy. */
  public S3Settings withRetry(RetryPolicy policy) {
    return new S3Settings(endpoint, region, pathStyle, policy);
  }

  /**
   * A client for these settings. Checksums are computed and checked by tilebeam itself (SHA-256 on
   * every upload), so the SDK adds none of its own beyond what an operation requires.
   */
  public S3Client open() {
    var b =
        S3Client.builder()
            .region(Region.of(region))
            .forcePathStyle(pathStyle)
            .credentialsProvider(DefaultCredentialsProvider.builder().build())
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(10))
                    .socketTimeout(Duration.ofSeconds(30)))
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .overrideConfiguration(
                o ->
                    o.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(ATTEMPT_TIMEOUT));
    if (endpoint != null) {
      b.endpointOverride(URI.create(endpoint));
    }
    return b.build();
  }

  /**
   * Whether a failed call may succeed if repeated: a retryable status, or a call that never got an
   * answer (a refused, reset or timed-out connection).
   */
  public static boolean isTransient(Exception e) {
    if (e instanceof AwsServiceException ae
        && ae.awsErrorDetails() != null
        && ae.awsErrorDetails().errorCode() != null
        && TRANSIENT_CODES.contains(ae.awsErrorDetails().errorCode())) {
      return true;
    }
    if (e instanceof SdkServiceException se) {
      return TRANSIENT.contains(se.statusCode()) || se.isThrottlingException();
    }
    if (e instanceof SdkClientException) {
      return causedByIo(e) || e.getMessage() != null && e.getMessage().contains("timed out");
    }
    return e instanceof IOException || e instanceof UncheckedIOException;
  }

  /** The HTTP status of a refused call, or 0 when no answer came. */
  public static int status(Exception e) {
    return e instanceof SdkServiceException se ? se.statusCode() : 0;
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
