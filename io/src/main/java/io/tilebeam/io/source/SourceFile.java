package io.tilebeam.io.source;

import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.tilebeam.codec.ByteRanges;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.io.storage.S3Clients;
import io.tilebeam.io.storage.S3Objects;
import io.tilebeam.io.storage.S3Settings;
import io.tilebeam.io.storage.Stores;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A source's bytes: a local file, one generation of a Google Cloud Storage object, or one version
 * of an S3 object. A remote source is pinned to the version read when the job was planned (GCS's
 * generation, S3's ETag), so that the bytes every worker reads are the ones its work keys were
 * computed from; an object replaced since then fails the read instead of mixing versions.
 */
public sealed interface SourceFile extends ByteRanges {

  /** A local file. */
  record Local(String file) implements SourceFile {
    /** The file. */
    public Path path() {
      return Path.of(file);
    }

    @Override
    public Path localPath() {
      return path();
    }

    @Override
    public long size() throws IOException {
      return Files.size(path());
    }

    @Override
    public InputStream open(long offset) throws IOException {
      FileChannel channel = FileChannel.open(path(), StandardOpenOption.READ);
      channel.position(offset);
      return Channels.newInputStream(channel);
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      try (FileChannel channel = FileChannel.open(path(), StandardOpenOption.READ)) {
        channel.position(offset);
        return readFully(channel, offset, length);
      }
    }

    @Override
    public String identity() throws IOException {
      return Checksums.of(path());
    }

    @Override
    public String describe() {
      return file;
    }
  }

  /**
   * One generation of a GCS object.
   *
   * @param bucket the bucket
   * @param object the object name
   * @param generation the generation read at planning
   * @param crc32c its CRC32C as GCS states it
   * @param length its size in bytes
   * @param gcs how to reach GCS
   */
  record Gcs(
      String bucket, String object, long generation, String crc32c, long length, GcsSettings gcs)
      implements SourceFile {

    @Override
    public long size() {
      return length;
    }

    @Override
    public InputStream open(long offset) throws IOException {
      Storage storage = gcs.open();
      ReadChannel channel = storage.reader(BlobId.of(bucket, object, generation));
      channel.seek(offset);
      channel.setChunkSize(4 << 20);
      return new FilterInputStream(Channels.newInputStream(channel)) {
        @Override
        public void close() throws IOException {
          try {
            super.close();
          } finally {
            GcsSettings.closeQuietly(storage);
          }
        }
      };
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      Storage storage = gcs.open();
      try {
        // A ranged read is cheap to repeat: failures that may pass are retried in place.
        return Retrier.of(gcs.retry(), e -> GcsSettings.isTransient(e) || transientIo(e))
            .call(
                "read " + describe(),
                () -> {
                  try (ReadChannel channel =
                      storage.reader(BlobId.of(bucket, object, generation))) {
                    channel.seek(offset);
                    channel.limit(offset + length);
                    channel.setChunkSize(0);
                    return readFully(channel, offset, length);
                  }
                });
      } catch (StorageException e) {
        throw new IOException(describe() + ": cannot read bytes " + offset + "+" + length, e);
      } finally {
        GcsSettings.closeQuietly(storage);
      }
    }

    /** A broken connection while reading, not the end of the object. */
    private static boolean transientIo(Exception e) {
      return e instanceof IOException && !(e instanceof java.io.EOFException);
    }

    /**
     * {@code gcs:<crc32c>:<generation>}: the object's content checksum and the generation it
     * belongs to. Uploading the same bytes again makes a new generation, and so new keys: a rebuild
     * that was not needed, never a stale tile.
     */
    @Override
    public String identity() {
      return "gcs:" + crc32c + ":" + generation;
    }

    @Override
    public String describe() {
      return "gs://" + bucket + "/" + object + "#" + generation;
    }
  }

  /**
   * One version of an S3 (or S3-compatible) object: every read is conditional on its ETag.
   *
   * @param bucket the bucket
   * @param key the object key
   * @param etag the ETag read at planning
   * @param length its size in bytes
   * @param s3 how to reach the store
   */
  record S3(String bucket, String key, String etag, long length, S3Settings s3)
      implements SourceFile {

    @Override
    public long size() {
      return length;
    }

    private S3Objects objects() {
      return new S3Objects(
          S3Clients.shared(s3), bucket, Retrier.of(s3.retry(), SourceFile::transientRead));
    }

    @Override
    public InputStream open(long offset) throws IOException {
      try {
        return objects().openFrom(key, etag, offset);
      } catch (SdkException e) {
        throw refused(e, offset);
      }
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
      if (offset + length > this.length) {
        throw new EOFException("ends at byte " + this.length + ", before " + (offset + length));
      }
      try {
        return objects().readRange(key, etag, offset, length);
      } catch (SdkException e) {
        throw refused(e, offset);
      }
    }

    private IOException refused(SdkException e, long offset) {
      if (S3Settings.status(e) == 412) {
        return new IOException(
            describe() + ": the object was replaced after the job was planned; run the job again",
            e);
      }
      return new IOException(describe() + ": cannot read from byte " + offset, e);
    }

    /**
     * {@code s3:<etag>:<size>}: the object's version as the store names it. The same bytes put
     * again in one request keep their ETag (and their keys); a new upload in parts may change it: a
     * rebuild that was not needed, never a stale tile.
     */
    @Override
    public String identity() {
      return "s3:" + etag + ":" + length;
    }

    @Override
    public String describe() {
      return "s3://" + bucket + "/" + key;
    }
  }

  /** A read that may pass if repeated: a transient refusal, or a connection that broke. */
  private static boolean transientRead(Exception e) {
    return S3Settings.isTransient(e) && !(e instanceof EOFException);
  }

  /** The size in bytes. */
  @Override
  long size() throws IOException;

  /** The bytes from {@code offset} on; the caller closes the stream. */
  InputStream open(long offset) throws IOException;

  /**
   * Exactly {@code length} bytes from {@code offset}: one ranged read, for the sources read in
   * pieces (a FlatGeobuf index, one tile's features).
   *
   * @throws java.io.EOFException when the source ends before them
   */
  @Override
  byte[] read(long offset, int length) throws IOException;

  /** The content identity that enters the work key. */
  String identity() throws IOException;

  /** The location, for messages. */
  @Override
  String describe();

  /** Reads {@code length} bytes from a channel placed at {@code offset}, failing at its end. */
  private static byte[] readFully(ReadableByteChannel channel, long offset, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        throw new EOFException(
            "ends at byte " + (offset + buffer.position()) + ", before " + (offset + length));
      }
    }
    return buffer.array();
  }

  /**
   * The source at {@code uri}: a path, a {@code file:} URI, {@code gs://bucket/object} (its current
   * generation, read now) or {@code s3://bucket/key} (its current version, read now).
   *
   * @throws IllegalArgumentException when the location is malformed, missing or unreadable
   */
  static SourceFile resolve(String uri, Stores stores) {
    if (uri.startsWith("s3://")) {
      return resolveS3(uri, stores.s3());
    }
    if (!uri.startsWith("gs://")) {
      Path p = Locations.localPath(uri).toAbsolutePath().normalize();
      if (Files.isDirectory(p)) {
        throw new IllegalArgumentException("is a directory, not a file (name the file in it)");
      }
      if (!Files.exists(p)) {
        throw new IllegalArgumentException("no such file");
      }
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException("is not a regular file (a device, a pipe or a socket)");
      }
      if (!Files.isReadable(p)) {
        throw new IllegalArgumentException("is not readable");
      }
      return new Local(p.toString());
    }
    String rest = uri.substring("gs://".length());
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      throw new IllegalArgumentException("a GCS source must be gs://bucket/object");
    }
    String bucket = rest.substring(0, slash);
    String object = rest.substring(slash + 1);
    GcsSettings gcs = stores.gcs();
    Storage storage = gcs.open();
    try {
      Blob blob =
          Retrier.of(gcs.retry(), GcsSettings::isTransient)
              .call("look up " + uri, () -> storage.get(BlobId.of(bucket, object)));
      if (blob == null) {
        throw new IllegalArgumentException("no such object");
      }
      return new Gcs(bucket, object, blob.getGeneration(), blob.getCrc32c(), blob.getSize(), gcs);
    } catch (StorageException e) {
      if (GcsSettings.isTransient(e)) {
        // Not the job's fault: the run fails (exit 1) and can be run again.
        throw new IllegalStateException(
            uri + " cannot be reached (" + e.getCode() + "): " + e.getMessage(), e);
      }
      throw new IllegalArgumentException(
          "cannot be read (" + e.getCode() + "): " + e.getMessage(), e);
    } finally {
      GcsSettings.closeQuietly(storage);
    }
  }

  private static SourceFile resolveS3(String uri, S3Settings settings) {
    String rest = uri.substring("s3://".length());
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      throw new IllegalArgumentException("an S3 source must be s3://bucket/key");
    }
    String bucket = rest.substring(0, slash);
    String key = rest.substring(slash + 1);
    S3Objects objects =
        new S3Objects(
            S3Clients.shared(settings),
            bucket,
            Retrier.of(settings.retry(), S3Settings::isTransient));
    try {
      S3Objects.Head head = objects.head(key);
      if (head == null) {
        throw new IllegalArgumentException("no such object");
      }
      return new S3(bucket, key, head.etag(), head.size(), settings);
    } catch (SdkException e) {
      int status = S3Settings.status(e);
      if (status == 0 || S3Settings.isTransient(e) || status == 403) {
        // Not the job's fault: the store or the credentials; the run fails (exit 1).
        throw new IllegalStateException(
            uri
                + " cannot be "
                + (status == 0 ? "reached" : "read (" + status + ")")
                + ": "
                + e.getMessage(),
            e);
      }
      throw new IllegalArgumentException("cannot be read (" + status + "): " + e.getMessage(), e);
    }
  }
}
