package io.tilebeam.io.sink;

import io.tilebeam.io.storage.S3Objects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * An archive in an S3 bucket: built in a local temporary file, then written whole under its final
 * key by one conditional request (absent, or the version whose pack key was read before the pack),
 * like a tile. An archive above {@link #MULTIPART_ABOVE} goes up as a multipart upload whose parts
 * each carry their SHA-256 and MD5 and whose completion carries the condition: the object appears
 * whole when the upload completes, never before. The pack key is the object's metadata, so a rerun
 * learns it without reading the archive.
 */
final class S3ArchiveTarget implements ArchiveTarget, AutoCloseable {

  /** Archives above this size are uploaded in parts. */
  static final long MULTIPART_ABOVE = 64L << 20;

  /** The size of an upload's parts. */
  static final int PART_SIZE = 16 << 20;

  /** The boundary of an S3 publish where a process can die: the write was answered. */
  enum Step {
    /** The archive is the final object. */
    WRITTEN
  }

  private final ArchiveSpec spec;
  private final OutputLocation.S3 location;
  private final OutputLocation.S3 staging;
  private final S3Objects s3;
  private final StepListener steps;
  private final long multipartAbove;
  private final int partSize;
  private S3Objects.Head published;

  S3ArchiveTarget(ArchiveSpec spec, StepListener steps) {
    this(
        spec,
        S3Objects.open(spec.s3(), ((OutputLocation.S3) spec.location()).bucket()),
        steps,
        MULTIPART_ABOVE,
        PART_SIZE);
  }

  S3ArchiveTarget(
      ArchiveSpec spec, S3Objects s3, StepListener steps, long multipartAbove, int partSize) {
    this.spec = spec;
    this.location = (OutputLocation.S3) spec.location();
    this.staging = (OutputLocation.S3) spec.staging();
    this.s3 = s3;
    this.steps = steps;
    this.multipartAbove = multipartAbove;
    this.partSize = partSize;
  }

  private String finalKey() {
    return location.objectName(spec.archiveName());
  }

  @Override
  public String publishedKey() throws IOException {
    try {
      published = s3.head(finalKey());
    } catch (SdkException e) {
      throw new IOException(spec.uri() + ": " + e.getMessage(), e);
    }
    return published == null ? null : published.meta(ArchivePack.PACK_KEY);
  }

  /** A staged tile's bytes. */
  byte[] readStaged(ArchivePack.Tile t) throws IOException {
    String key = staging.objectName(ArchivePack.stagedName(spec, t));
    S3Objects.Read read;
    try {
      read = s3.read(key);
    } catch (SdkException e) {
      throw new IOException("cannot read " + s3.uri(key) + ": " + e.getMessage(), e);
    }
    if (read == null) {
      throw new NoSuchFileException(s3.uri(key));
    }
    return read.bytes();
  }

  @Override
  public Path newTempFile(String suffix) throws IOException {
    return Files.createTempFile("tilebeam-" + spec.archiveName() + ".", suffix);
  }

  @Override
  public ArchivePack.Outcome publish(Path archive, String packKey, String checksum)
      throws IOException {
    try {
      String attempt = UUID.randomUUID().toString();
      Map<String, String> metadata =
          Map.of(
              ArchivePack.PACK_KEY,
              packKey,
              GcsTileSink.CHECKSUM,
              checksum,
              GcsTileSink.ATTEMPT,
              attempt);
      boolean multipart = Files.size(archive) > multipartAbove;
      byte[] whole = multipart ? null : Files.readAllBytes(archive);
      String key = finalKey();
      ArchivePack.Outcome outcome =
          S3Publish.write(
              s3,
              key,
              published,
              ArchivePack.Outcome.WRITTEN,
              etag -> {
                if (multipart) {
                  s3.putMultipart(key, archive, MEDIA_TYPE, metadata, etag, partSize);
                } else {
                  s3.put(key, whole, MEDIA_TYPE, metadata, etag);
                }
              },
              current -> {
                if (current != null && attempt.equals(current.meta(GcsTileSink.ATTEMPT))) {
                  return ArchivePack.Outcome.WRITTEN; // our write landed; its answer was lost
                }
                // Another run's archive of the same tiles ends the publish; another is replaced.
                return current != null && packKey.equals(current.meta(ArchivePack.PACK_KEY))
                    ? ArchivePack.Outcome.UNCHANGED
                    : null;
              });
      steps.reached(Step.WRITTEN);
      return outcome;
    } catch (SdkException e) {
      throw new IOException("cannot publish " + spec.uri() + ": " + e.getMessage(), e);
    } finally {
      Files.deleteIfExists(archive);
    }
  }

  private static final String MEDIA_TYPE = "application/vnd.pmtiles";

  @Override
  public void close() {
    s3.close();
  }
}
