package io.tilebeam.io.sink;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes tiles to Google Cloud Storage as {@code <prefix>/<layer>/<z>/<x>/<y>.<ext>}.
 *
 * <p>Each attempt uploads a temporary object {@code <prefix>/_tmp/<run>/<hash>-<attempt>} with its
 * CRC32C stated (the service refuses bytes that do not match it) and checks the CRC32C and size the
 * service reports, then copies it onto the final object with a generation precondition: the final
 * object must still be absent ({@code ifGenerationMatch=0}) or still be the generation read before.
 * A reader therefore sees the old object or the new one, whole. The temporary object is deleted
 * last. Final objects carry {@code work_key}, {@code checksum} (SHA-256) and {@code features}
 * metadata; when the final object already holds this work key and these bytes, nothing is written.
 *
 * <p>A failed precondition (412) means another writer got there first: the final object is read
 * again and decides. If it holds this attempt's copy (the answer to a copy that succeeded was lost)
 * or the same bytes for the same key, the tile is published; otherwise the copy is tried again over
 * what is there now, since this run owns the tile's claim. Transient errors (408, 429, 5xx, broken
 * connections) are retried with exponential backoff and full jitter; permanent ones fail the tile.
 */
public final class GcsTileSink implements TileSink {

  private static final Logger LOG = LoggerFactory.getLogger(GcsTileSink.class);

  /** Metadata of a final object: the work key that produced it. */
  public static final String WORK_KEY = "work_key";

  /** Metadata of a final object: its SHA-256, {@code sha256:<hex>}. */
  public static final String CHECKSUM = "checksum";

  /** Metadata of a final object: its feature count. */
  public static final String FEATURES = "features";

  /** Metadata of a final object: the attempt that copied it there. */
  static final String ATTEMPT = "attempt";

  /** The folder, under the output prefix, of temporary objects. */
  public static final String TEMP_DIR = "_tmp";

  /** Uploads above this size are resumable, in chunks; smaller ones take one request. */
  static final int RESUMABLE_ABOVE = 8 << 20;

  /** The boundaries between a publish's steps, where a process can die. */
  enum Step {
    /** The temporary object is uploaded. */
    TEMP_UPLOADED,
    /** Its CRC32C and size, as the service reports them, are the ones sent. */
    VERIFIED,
    /** It was copied onto the final object. */
    COPIED,
    /** The temporary object was deleted. */
    TEMP_DELETED
  }

  private final Storage storage;
  private final OutputLocation.Gcs location;
  private final PublishSpec spec;
  private final String runId;
  private final Retrier retrier;
  private final StepListener steps;
  private final int resumableAbove;

  /** A sink for {@code spec}'s GCS location, its temporary objects named after {@code runId}. */
  public GcsTileSink(Storage storage, PublishSpec spec, String runId, RetryPolicy retry) {
    this(
        storage,
        spec,
        runId,
        Retrier.of(retry, GcsSettings::isTransient),
        StepListener.NONE,
        RESUMABLE_ABOVE);
  }

  GcsTileSink(
      Storage storage,
      PublishSpec spec,
      String runId,
      Retrier retrier,
      StepListener steps,
      int resumableAbove) {
    this.storage = storage;
    this.location = (OutputLocation.Gcs) spec.location();
    this.spec = spec;
    this.runId = runId;
    this.retrier = retrier;
    this.steps = steps;
    this.resumableAbove = resumableAbove;
  }

  /** The final object of a tile. */
  public BlobId finalObject(TileWork work) {
    return BlobId.of(
        location.bucket(),
        location.objectName(TilePaths.relative(work, spec.format().extension())));
  }

  /** The prefix under which this sink's temporary objects are made, for any run. */
  public static String tempPrefix(OutputLocation.Gcs location) {
    return location.objectName(TEMP_DIR + "/");
  }

  @Override
  public PublishResult publish(TileContent tile) throws TileDataException, IOException {
    TileFormat.Encoded encoded = EncodedTiles.encode(spec.format(), spec.targetCrs(), tile);
    return publish(tile.key(), tile.work(), encoded.bytes(), encoded.features());
  }

  /**
   * Publishes the tile's bytes.
   *
   * @throws TileDataException when the bytes do not parse back, or the store refuses them for good
   * @throws IOException when transient errors outlast the retries
   */
  public PublishResult publish(WorkKey key, TileWork work, byte[] bytes, long featureCount)
      throws TileDataException, IOException {
    EncodedTiles.checkParsesBack(spec.format(), bytes, featureCount);
    BlobId target = finalObject(work);
    String uri = "gs://" + target.getBucket() + "/" + target.getName();
    String checksum = Checksums.of(bytes);
    String crc32c = crc32c(bytes);
    try {
      Blob existing = retrier.call("read " + uri, () -> storage.get(target));
      if (holds(existing, key, checksum, crc32c)) {
        return new PublishResult(key, work, uri, checksum, featureCount, Outcome.UNCHANGED);
      }
      String attempt = UUID.randomUUID().toString();
      Map<String, String> metadata = metadata(key, checksum, featureCount, attempt);
      BlobInfo temp =
          BlobInfo.newBuilder(BlobId.of(location.bucket(), tempName(target, attempt)))
              .setContentType(contentType())
              .setCrc32c(crc32c)
              .setMetadata(metadata)
              .build();
      Blob uploaded = retrier.call("upload " + temp.getName(), () -> upload(temp, bytes));
      steps.reached(Step.TEMP_UPLOADED);
      verify(uploaded, crc32c, bytes.length);
      steps.reached(Step.VERIFIED);
      Outcome outcome = copyOnto(temp, target, existing, key, checksum, crc32c, attempt);
      steps.reached(Step.COPIED);
      deleteTemp(temp.getBlobId());
      steps.reached(Step.TEMP_DELETED);
      return new PublishResult(key, work, uri, checksum, featureCount, outcome);
    } catch (StorageException e) {
      if (GcsSettings.isTransient(e)) {
        throw new IOException(uri + ": storage kept failing: " + e.getMessage(), e);
      }
      throw new TileDataException(
          "storage", uri + ": refused (" + e.getCode() + "): " + e.getMessage(), e);
    }
  }

  /** A final object's metadata, on GCS and S3 alike. */
  static Map<String, String> metadata(
      WorkKey key, String checksum, long featureCount, String attempt) {
    return Map.of(
        WORK_KEY,
        key.value(),
        CHECKSUM,
        checksum,
        FEATURES,
        Long.toString(featureCount),
        ATTEMPT,
        attempt);
  }

  private String contentType() {
    return spec.format().mediaType();
  }

  /**
   * Hash-prefixed so that temporary names spread over the bucket's key range instead of all landing
   * on one sequential run of names.
   */
  private String tempName(BlobId target, String attempt) {
    byte[] digest = Sha256.of((target.getName() + attempt).getBytes(StandardCharsets.UTF_8));
    String hash = HexFormat.of().formatHex(digest, 0, 4);
    return location.objectName(TEMP_DIR + "/" + runId + "/" + hash + "-" + attempt);
  }

  private Blob upload(BlobInfo temp, byte[] bytes) {
    if (bytes.length <= resumableAbove) {
      return storage.create(temp, bytes, BlobTargetOption.disableGzipContent());
    }
    try (WriteChannel channel = storage.writer(temp, BlobWriteOption.crc32cMatch())) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    } catch (IOException e) {
      throw new StorageException(e);
    }
    return storage.get(temp.getBlobId());
  }

  private static void verify(Blob uploaded, String crc32c, long size) {
    if (uploaded == null
        || !crc32c.equals(uploaded.getCrc32c())
        || uploaded.getSize() == null
        || uploaded.getSize() != size) {
      // Treated as transient: a fresh upload is the remedy.
      throw new StorageException(
          503,
          "temporary object reads back as "
              + (uploaded == null
                  ? "missing"
                  : "crc32c " + uploaded.getCrc32c() + ", " + uploaded.getSize() + " bytes")
              + ", sent crc32c "
              + crc32c
              + ", "
              + size
              + " bytes");
    }
  }

  private Outcome copyOnto(
      BlobInfo temp,
      BlobId target,
      Blob existing,
      WorkKey key,
      String checksum,
      String crc32c,
      String attempt) {
    BlobInfo finalInfo =
        BlobInfo.newBuilder(target)
            .setContentType(temp.getContentType())
            .setMetadata(temp.getMetadata())
            .build();
    return GenerationCopy.copy(
        storage,
        retrier,
        temp,
        finalInfo,
        existing,
        Outcome.WRITTEN,
        current -> {
          if (current == null || current.getMetadata() == null) {
            return null;
          }
          if (attempt.equals(current.getMetadata().get(ATTEMPT))) {
            return Outcome.WRITTEN; // our copy landed; only its answer was lost
          }
          // Another writer published the same tile, or a different one: copy over it.
          return holds(current, key, checksum, crc32c) ? Outcome.UNCHANGED : null;
        });
  }

  private void deleteTemp(BlobId temp) {
    // A temporary object that outlives its publish is harmless (never at a final name) and is
    // removed by `reap`; a publish that succeeded does not fail over it.
    try {
      retrier.call("delete " + temp.getName(), () -> storage.delete(temp));
    } catch (StorageException e) {
      LOG.warn("could not delete temporary object {}: {}", temp.getName(), e.getMessage());
    }
  }

  private static boolean holds(Blob blob, WorkKey key, String checksum, String crc32c) {
    return blob != null
        && blob.getMetadata() != null
        && crc32c.equals(blob.getCrc32c())
        && key.value().equals(blob.getMetadata().get(WORK_KEY))
        && checksum.equals(blob.getMetadata().get(CHECKSUM));
  }

  /** The CRC32C of {@code bytes} as GCS states it: base64 of the big-endian 32-bit value. */
  static String crc32c(byte[] bytes) {
    CRC32C c = new CRC32C();
    c.update(bytes);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
  }

  @Override
  public void close() {
    GcsSettings.closeQuietly(storage);
  }
}
