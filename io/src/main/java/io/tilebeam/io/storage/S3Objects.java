package io.tilebeam.io.storage;

import io.tilebeam.io.retry.Retrier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * One bucket of an S3-compatible store, as tilebeam uses it: objects read by metadata, whole or by
 * range pinned to an ETag, and written only whole, by one conditional request. A write states the
 * object's SHA-256 and MD5 (S3 checks the first, S3-compatible servers at least the second; a store
 * refuses bytes that do not match them, and the write is made again) and must either find no object
 * ({@code If-None-Match: *}) or find the version read before ({@code If-Match: <etag>}); a store
 * that answers 412 or 409 tells the caller that someone else wrote first ({@link Conflict}). Every
 * call is retried by the given {@link Retrier} when it fails transiently.
 */
public final class S3Objects implements AutoCloseable {

  /** What a HEAD of an object tells. */
  public record Head(String etag, long size, String sha256, Map<String, String> metadata) {
    /** A metadata value, or null. */
    public String meta(String name) {
      return metadata.get(name);
    }
  }

  /** A conditional write found another version of the object than the one it was meant for. */
  public static final class Conflict extends Exception {
    private static final long serialVersionUID = 1L;

    Conflict(String key, SdkException cause) {
      super(key + ": changed by another writer (" + S3Settings.status(cause) + ")", cause);
    }
  }

  private final S3Client client;
  private final String bucket;
  private final Retrier retrier;

  /** The bucket {@code bucket} through {@code client}; closing this closes the client. */
  public S3Objects(S3Client client, String bucket, Retrier retrier) {
    this.client = client;
    this.bucket = bucket;
    this.retrier = retrier;
  }

  /** The bucket {@code bucket} through a client opened from {@code settings}. */
  public static S3Objects open(S3Settings settings, String bucket) {
    return new S3Objects(
        settings.open(), bucket, Retrier.of(settings.retry(), S3Settings::isTransient));
  }

  /** The bucket. */
  public String bucket() {
    return bucket;
  }

  /** {@code s3://bucket/key}. */
  public String uri(String key) {
    return "s3://" + bucket + "/" + key;
  }

  /**
   * Whether the bucket can be used: true when it exists and these credentials may use it, false
   * when it does not exist.
   *
   * @throws SdkException when the store refuses (403) or cannot be reached after the retries
   */
  public boolean bucketExists() {
    try {
      retrier.call("look up bucket " + bucket, () -> client.headBucket(b -> b.bucket(bucket)));
      return true;
    } catch (SdkException e) {
      if (S3Settings.status(e) == 404) {
        return false;
      }
      throw e;
    }
  }

  /** The object's HEAD, or null when there is none. */
  public Head head(String key) {
    try {
      HeadObjectResponse r =
          retrier.call(
              "look up " + uri(key),
              () ->
                  client.headObject(
                      b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED)));
      return new Head(r.eTag(), r.contentLength(), r.checksumSHA256(), r.metadata());
    } catch (SdkException e) {
      if (S3Settings.status(e) == 404) {
        return null;
      }
      throw e;
    }
  }

  /** The object's bytes and ETag, or null when there is none. */
  public Read read(String key) {
    try {
      ResponseBytes<GetObjectResponse> r =
          retrier.call(
              "read " + uri(key), () -> client.getObjectAsBytes(b -> b.bucket(bucket).key(key)));
      return new Read(r.asByteArray(), r.response().eTag(), r.response().metadata());
    } catch (SdkException e) {
      if (S3Settings.status(e) == 404) {
        return null;
      }
      throw e;
    }
  }

  /** An object's bytes, its ETag and metadata. */
  public record Read(byte[] bytes, String etag, Map<String, String> metadata) {}

  /**
   * Exactly {@code length} bytes of the object from {@code offset}, only while it is still the
   * version {@code etag}.
   *
   * @throws SdkException 412 when the object was replaced, or a refusal
   */
  public byte[] readRange(String key, String etag, long offset, int length) {
    if (length == 0) {
      return new byte[0];
    }
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    return retrier
        .call(
            "read " + uri(key) + " " + range,
            () ->
                client.getObjectAsBytes(b -> b.bucket(bucket).key(key).ifMatch(etag).range(range)))
        .asByteArray();
  }

  /**
   * The object from {@code offset} to its end, only while it is the version {@code etag}; the
   * caller closes the stream.
   */
  public InputStream openFrom(String key, String etag, long offset) {
    return retrier.call(
        "open " + uri(key),
        () ->
            client.getObject(
                b -> b.bucket(bucket).key(key).ifMatch(etag).range("bytes=" + offset + "-")));
  }

  /**
   * Writes the whole object in one request if it is still as the caller read it: absent ({@code
   * expectedEtag} null) or the version {@code expectedEtag}. Returns the new ETag.
   *
   * @throws Conflict when another writer changed it first
   * @throws IOException when the store reports a checksum other than the one sent
   */
  public String put(
      String key,
      byte[] bytes,
      String contentType,
      Map<String, String> metadata,
      String expectedEtag)
      throws Conflict, IOException {
    String sha256 = sha256(bytes);
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(bucket)
            .key(key)
            .contentType(contentType)
            .contentLength((long) bytes.length)
            .metadata(metadata)
            .checksumAlgorithm(ChecksumAlgorithm.SHA256)
            .checksumSHA256(sha256)
            .contentMD5(md5(bytes));
    if (expectedEtag == null) {
      request.ifNoneMatch("*");
    } else {
      request.ifMatch(expectedEtag);
    }
    PutObjectRequest put = request.build();
    PutObjectResponse r;
    try {
      r =
          retrier.call(
              "write " + uri(key), () -> client.putObject(put, RequestBody.fromBytes(bytes)));
    } catch (SdkException e) {
      throw conflict(key, e);
    }
    checkChecksum(key, sha256, r.checksumSHA256());
    return r.eTag();
  }

  /**
   * Writes a file as one object through a multipart upload of {@code partSize}-byte parts, each
   * with its SHA-256; the completion carries the condition, so the object appears whole or not at
   * all. An upload that fails is aborted (what a killed process leaves is aborted by {@code reap}).
   *
   * @throws Conflict when another writer changed the object first
   */
  public String putMultipart(
      String key,
      Path file,
      String contentType,
      Map<String, String> metadata,
      String expectedEtag,
      int partSize)
      throws Conflict, IOException {
    String uploadId =
        retrier
            .call(
                "start upload " + uri(key),
                () ->
                    client.createMultipartUpload(
                        b ->
                            b.bucket(bucket)
                                .key(key)
                                .contentType(contentType)
                                .metadata(metadata)
                                .checksumAlgorithm(ChecksumAlgorithm.SHA256)))
            .uploadId();
    boolean done = false;
    try {
      List<CompletedPart> parts = new ArrayList<>();
      try (InputStream in = Files.newInputStream(file)) {
        for (int number = 1; ; number++) {
          byte[] part = in.readNBytes(partSize);
          if (part.length == 0 && number > 1) {
            break;
          }
          String sha256 = sha256(part);
          int n = number;
          UploadPartResponse r =
              retrier.call(
                  "upload part " + n + " of " + uri(key),
                  () ->
                      client.uploadPart(
                          b ->
                              b.bucket(bucket)
                                  .key(key)
                                  .uploadId(uploadId)
                                  .partNumber(n)
                                  .contentLength((long) part.length)
                                  .checksumAlgorithm(ChecksumAlgorithm.SHA256)
                                  .checksumSHA256(sha256)
                                  .contentMD5(md5(part)),
                          RequestBody.fromBytes(part)));
          checkChecksum(key + " part " + n, sha256, r.checksumSHA256());
          parts.add(
              CompletedPart.builder().partNumber(n).eTag(r.eTag()).checksumSHA256(sha256).build());
          if (part.length < partSize) {
            break;
          }
        }
      }
      String etag;
      try {
        etag =
            retrier
                .call(
                    "complete upload " + uri(key),
                    () ->
                        client.completeMultipartUpload(
                            b -> {
                              b.bucket(bucket)
                                  .key(key)
                                  .uploadId(uploadId)
                                  .multipartUpload(
                                      CompletedMultipartUpload.builder().parts(parts).build());
                              if (expectedEtag == null) {
                                b.ifNoneMatch("*");
                              } else {
                                b.ifMatch(expectedEtag);
                              }
                            }))
                .eTag();
      } catch (SdkException e) {
        throw conflict(key, e);
      }
      done = true;
      return etag;
    } finally {
      if (!done) {
        abortQuietly(key, uploadId);
      }
    }
  }

  private void abortQuietly(String key, String uploadId) {
    try {
      client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
    } catch (SdkException e) {
      // Left for `reap`, which aborts uploads older than its cut-off; never visible as an object.
    }
  }

  /** Deletes an object (nothing when it is gone). */
  public void delete(String key) {
    retrier.call("delete " + uri(key), () -> client.deleteObject(b -> b.bucket(bucket).key(key)));
  }

  /** The objects under {@code prefix}: their keys and last-modified times. */
  public List<S3Object> list(String prefix) {
    List<S3Object> out = new ArrayList<>();
    retrier.call(
        "list " + uri(prefix),
        () -> {
          out.clear();
          client
              .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
              .contents()
              .forEach(out::add);
          return null;
        });
    return out;
  }

  /**
   * Aborts the multipart uploads under {@code prefix} begun before {@code cutoff} (a younger one
   * may belong to a live attempt); returns how many.
   */
  public long abortUploadsBefore(String prefix, Instant cutoff) {
    long aborted = 0;
    for (var upload :
        retrier.call(
            "list uploads " + uri(prefix),
            () -> client.listMultipartUploads(b -> b.bucket(bucket).prefix(prefix)).uploads())) {
      if (upload.initiated() != null && upload.initiated().isBefore(cutoff)) {
        retrier.call(
            "abort upload " + upload.key(),
            () ->
                client.abortMultipartUpload(
                    b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId())));
        aborted++;
      }
    }
    return aborted;
  }

  /** A {@link Conflict} for a failed condition; any other refusal is rethrown as it is. */
  private static Conflict conflict(String key, SdkException e) {
    int status = S3Settings.status(e);
    // 412: the condition failed; 409: a concurrent conditional write to the key was in progress.
    if (status == 412 || status == 409) {
      return new Conflict(key, e);
    }
    throw e;
  }

  private static void checkChecksum(String what, String sent, String stored) throws IOException {
    if (stored != null && !stored.equals(sent)) {
      throw new IOException(
          what + ": the store reports SHA-256 " + stored + " for bytes sent with " + sent);
    }
  }

  /** Base64 of the SHA-256 of {@code bytes}, as S3 states checksums. */
  public static String sha256(byte[] bytes) {
    MessageDigest d = io.tilebeam.transforms.digest.Sha256.create();
    return Base64.getEncoder().encodeToString(d.digest(bytes));
  }

  /**
   * Base64 of the MD5 of {@code bytes}: the {@code Content-MD5} every S3-compatible store checks.
   */
  static String md5(byte[] bytes) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has MD5", e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
