package io.tilebeam.io.sink;

import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobWriteOption;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.GcsSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An archive in a bucket: built in a local temporary file, uploaded to a temporary object under
 * {@code _tmp/}, checked (CRC32C and size as the service reports them), then copied onto the final
 * object with a generation precondition (absent, or the generation whose pack key was read before
 * the pack), like a tile. The pack key is also the final object's metadata, so that a rerun learns
 * it without reading the archive.
 */
final class GcsArchiveTarget implements ArchiveTarget, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GcsArchiveTarget.class);

  /** The boundaries of a GCS publish, where a process can die. */
  enum Step {
    /** The temporary object is uploaded. */
    TEMP_UPLOADED,
    /** Its CRC32C and size read back as sent. */
    VERIFIED,
    /** It was copied onto the final object. */
    COPIED,
    /** The temporary object was deleted. */
    TEMP_DELETED
  }

  private final ArchiveSpec spec;
  private final OutputLocation.Gcs location;
  private final OutputLocation.Gcs staging;
  private final Storage storage;
  private final String runId;
  private final Retrier retrier;
  private final StepListener steps;
  private Blob published;

  GcsArchiveTarget(ArchiveSpec spec, String runId, RetryPolicy retry, StepListener steps) {
    this(spec, spec.gcs().open(), runId, Retrier.of(retry, GcsSettings::isTransient), steps);
  }

  GcsArchiveTarget(
      ArchiveSpec spec, Storage storage, String runId, Retrier retrier, StepListener steps) {
    this.spec = spec;
    this.location = (OutputLocation.Gcs) spec.location();
    this.staging = (OutputLocation.Gcs) spec.staging();
    this.storage = storage;
    this.runId = runId;
    this.retrier = retrier;
    this.steps = steps;
  }

  private BlobId finalObject() {
    return BlobId.of(location.bucket(), location.objectName(spec.archiveName()));
  }

  @Override
  public String publishedKey() throws IOException {
    BlobId id = finalObject();
    published = call(() -> retrier.call("read " + id.getName(), () -> storage.get(id)));
    return published == null || published.getMetadata() == null
        ? null
        : published.getMetadata().get(ArchivePack.PACK_KEY);
  }

  /** A staged tile's bytes. */
  byte[] readStaged(ArchivePack.Tile t) throws IOException {
    BlobId id = BlobId.of(staging.bucket(), staging.objectName(ArchivePack.stagedName(spec, t)));
    try {
      return retrier.call("read " + id.getName(), () -> storage.readAllBytes(id));
    } catch (StorageException e) {
      if (e.getCode() == 404) {
        throw new NoSuchFileException("gs://" + id.getBucket() + "/" + id.getName());
      }
      throw new IOException("cannot read gs://" + id.getBucket() + "/" + id.getName(), e);
    }
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
      String crc32c = crc32c(archive);
      long size = Files.size(archive);
      Map<String, String> metadata =
          Map.of(
              ArchivePack.PACK_KEY,
              packKey,
              GcsTileSink.CHECKSUM,
              checksum,
              GcsTileSink.ATTEMPT,
              attempt);
      BlobInfo temp =
          BlobInfo.newBuilder(
                  BlobId.of(
                      location.bucket(),
                      location.objectName(
                          GcsTileSink.TEMP_DIR
                              + "/"
                              + runId
                              + "/"
                              + spec.archiveName()
                              + "-"
                              + attempt)))
              .setContentType("application/vnd.pmtiles")
              .setCrc32c(crc32c)
              .setMetadata(metadata)
              .build();
      Blob uploaded =
          call(() -> retrier.call("upload " + temp.getName(), () -> upload(temp, archive)));
      steps.reached(Step.TEMP_UPLOADED);
      if (uploaded == null
          || !crc32c.equals(uploaded.getCrc32c())
          || uploaded.getSize() == null
          || uploaded.getSize() != size) {
        throw new IOException(
            "the uploaded archive reads back differently from the " + size + " bytes sent");
      }
      steps.reached(Step.VERIFIED);
      ArchivePack.Outcome outcome = copyOnto(temp, packKey, attempt);
      steps.reached(Step.COPIED);
      try {
        retrier.call("delete " + temp.getName(), () -> storage.delete(temp.getBlobId()));
      } catch (StorageException e) {
        // Never at a final name; `reap` removes it.
        LOG.warn("could not delete temporary object {}: {}", temp.getName(), e.getMessage());
      }
      steps.reached(Step.TEMP_DELETED);
      return outcome;
    } finally {
      Files.deleteIfExists(archive);
    }
  }

  private Blob upload(BlobInfo temp, Path archive) {
    try (WriteChannel channel = storage.writer(temp, BlobWriteOption.crc32cMatch());
        InputStream in = Files.newInputStream(archive)) {
      byte[] buf = new byte[1 << 20];
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        ByteBuffer b = ByteBuffer.wrap(buf, 0, n);
        while (b.hasRemaining()) {
          channel.write(b);
        }
      }
    } catch (IOException e) {
      throw new StorageException(e);
    }
    return storage.get(temp.getBlobId());
  }

  /**
   * Copies the temporary object onto the final one if that is still the generation read before the
   * pack; on a conflict, reads the final object again: our own copy whose answer was lost, or
   * another run's archive of the same tiles, end the publish; a different archive is replaced.
   */
  private ArchivePack.Outcome copyOnto(BlobInfo temp, String packKey, String attempt)
      throws IOException {
    BlobInfo finalInfo =
        BlobInfo.newBuilder(finalObject())
            .setContentType(temp.getContentType())
            .setMetadata(temp.getMetadata())
            .build();
    try {
      return GenerationCopy.copy(
          storage,
          retrier,
          temp,
          finalInfo,
          published,
          ArchivePack.Outcome.WRITTEN,
          current -> {
            Map<String, String> m = current == null ? null : current.getMetadata();
            if (m != null && attempt.equals(m.get(GcsTileSink.ATTEMPT))) {
              return ArchivePack.Outcome.WRITTEN; // our copy landed; only its answer was lost
            }
            // Another run's archive of the same tiles ends the publish; a different one is
            // replaced.
            return m != null && packKey.equals(m.get(ArchivePack.PACK_KEY))
                ? ArchivePack.Outcome.UNCHANGED
                : null;
          });
    } catch (StorageException e) {
      throw new IOException("cannot publish " + spec.uri() + ": " + e.getMessage(), e);
    }
  }

  private interface StorageCall<T> {
    T call();
  }

  private <T> T call(StorageCall<T> c) throws IOException {
    try {
      return c.call();
    } catch (StorageException e) {
      throw new IOException(spec.uri() + ": " + e.getMessage(), e);
    }
  }

  /** A file's CRC32C as GCS states it: base64 of the big-endian 32-bit value. */
  private static String crc32c(Path file) throws IOException {
    CRC32C c = new CRC32C();
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        c.update(buf, 0, n);
      }
    }
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
  }

  @Override
  public void close() {
    GcsSettings.closeQuietly(storage);
  }
}
