package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.S3Objects;
import io.tilebeam.io.storage.S3Settings;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Publishes tiles to S3 or an S3-compatible store as {@code <prefix>/<layer>/<z>/<x>/<y>.<ext>}.
 *
 * <p>S3 makes a single PUT atomic: an object appears whole or not at all, so there is no temporary
 * object. Each publish reads the final object's metadata; when it already holds this work key and
 * these bytes, nothing is written. Otherwise the checked bytes go up in one PUT that states their
 * SHA-256 and MD5 (the store refuses bytes that do not match) and a condition: no object yet
 * ({@code If-None-Match: *}) or still the version read before ({@code If-Match: <etag>}). Final
 * objects carry {@code work_key}, {@code checksum} (SHA-256) and {@code features} metadata.
 *
 * <p>A failed condition (412, or 409 for a concurrent conditional write) means another writer got
 * there first: the object is read again and decides. If it holds this attempt's write (the answer
 * to a PUT that succeeded was lost) or the same bytes for the same key, the tile is published;
 * otherwise the PUT is made again over what is there now, since this run owns the tile's claim.
 * Transient errors (408, 429, 5xx, broken connections) are retried with exponential backoff and
 * full jitter; permanent ones (403, a missing bucket) fail the tile at once.
 */
public final class S3TileSink implements TileSink {

  /** The boundaries between a publish's steps, where a process can die. */
  enum Step {
    /** The final object's metadata was read; nothing is written yet. */
    LOOKED_UP,
    /** The PUT was answered: the object is there, whole. */
    WRITTEN
  }

  private final S3Objects s3;
  private final OutputLocation.S3 location;
  private final PublishSpec spec;
  private final StepListener steps;

  /** A sink for {@code spec}'s S3 location. */
  public S3TileSink(PublishSpec spec) {
    this(
        spec,
        S3Objects.open(spec.s3(), ((OutputLocation.S3) spec.location()).bucket()),
        StepListener.NONE);
  }

  S3TileSink(PublishSpec spec, S3Objects s3, StepListener steps) {
    this.s3 = s3;
    this.location = (OutputLocation.S3) spec.location();
    this.spec = spec;
    this.steps = steps;
  }

  /** The object key of a tile. */
  public String objectKey(TileWork work) {
    return location.objectName(TilePaths.relative(work, spec.format().extension()));
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
    String objectKey = objectKey(work);
    String uri = s3.uri(objectKey);
    String checksum = Checksums.of(bytes);
    try {
      S3Objects.Head existing = s3.head(objectKey);
      if (holds(existing, key, checksum)) {
        return new PublishResult(key, work, uri, checksum, featureCount, Outcome.UNCHANGED);
      }
      steps.reached(Step.LOOKED_UP);
      String attempt = UUID.randomUUID().toString();
      Map<String, String> metadata = GcsTileSink.metadata(key, checksum, featureCount, attempt);
      Outcome outcome =
          S3Publish.write(
              s3,
              objectKey,
              existing,
              Outcome.WRITTEN,
              etag -> s3.put(objectKey, bytes, spec.format().mediaType(), metadata, etag),
              current -> {
                if (current != null && attempt.equals(current.meta(GcsTileSink.ATTEMPT))) {
                  return Outcome.WRITTEN; // our PUT landed; only its answer was lost
                }
                return holds(current, key, checksum) ? Outcome.UNCHANGED : null;
              });
      steps.reached(Step.WRITTEN);
      return new PublishResult(key, work, uri, checksum, featureCount, outcome);
    } catch (SdkException e) {
      if (S3Settings.isTransient(e)) {
        throw new IOException(uri + ": storage kept failing: " + e.getMessage(), e);
      }
      throw new TileDataException(
          "storage", uri + ": refused (" + S3Settings.status(e) + "): " + e.getMessage(), e);
    }
  }

  private static boolean holds(S3Objects.Head head, WorkKey key, String checksum) {
    return head != null
        && key.value().equals(head.meta(GcsTileSink.WORK_KEY))
        && checksum.equals(head.meta(GcsTileSink.CHECKSUM));
  }

  @Override
  public void close() {
    s3.close();
  }
}
