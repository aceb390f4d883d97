package io.tilebeam.io.sink;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.io.storage.S3Objects;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Reads published tiles back, for {@code verify} and {@code reap}: whether a tile is there with the
 * checksum the ledger recorded (files and objects are hashed whole, table rows digested as the sink
 * digested them), and which temporary objects are orphans. Clients and connections are opened once
 * per output and closed with this object.
 */
public final class PublishedTiles implements AutoCloseable {

  private final Map<GcsSettings, Storage> clients = new HashMap<>();
  private final Map<String, Connection> connections = new HashMap<>();
  private final Map<String, S3Objects> buckets = new HashMap<>();

  /**
   * What is wrong with a published tile, or null when it is there with {@code checksum}.
   *
   * @param spec the layer's output, or null when the layer is no longer in the job (then only file
   *     URIs can be checked)
   * @throws IOException when the output cannot be read at all
   */
  public String problem(PublishSpec spec, String uri, String checksum, TileId tile)
      throws IOException {
    OutputLocation location = spec == null ? null : spec.location();
    if (location instanceof OutputLocation.Gcs) {
      return objectProblem(spec.gcs(), uri, checksum);
    }
    if (location instanceof OutputLocation.S3 s3) {
      return s3Problem(spec, s3, uri, checksum);
    }
    if (location instanceof OutputLocation.PostGis table) {
      return rowsProblem(table, checksum, tile);
    }
    return fileProblem(uri, checksum);
  }

  private static String fileProblem(String uri, String checksum) throws IOException {
    Path file;
    try {
      file = Locations.localPath(uri);
    } catch (IllegalArgumentException e) {
      return "output " + uri + " cannot be checked here: " + e.getMessage();
    }
    if (!Files.isRegularFile(file)) {
      return "output " + uri + " is missing";
    }
    return mismatch(uri, Checksums.of(file), checksum);
  }

  private String objectProblem(GcsSettings settings, String uri, String checksum)
      throws IOException {
    if (!uri.startsWith("gs://") || uri.indexOf('/', 5) < 0) {
      return "output " + uri + " is not a gs:// object";
    }
    int slash = uri.indexOf('/', 5);
    BlobId id = BlobId.of(uri.substring(5, slash), uri.substring(slash + 1));
    try {
      Storage storage = clients.computeIfAbsent(settings, GcsSettings::open);
      Blob blob = storage.get(id);
      if (blob == null) {
        return "output " + uri + " is missing";
      }
      return mismatch(uri, Checksums.of(blob.getContent()), checksum);
    } catch (StorageException e) {
      throw new IOException("cannot read " + uri + ": " + e.getMessage(), e);
    }
  }

  private String s3Problem(
      PublishSpec spec, OutputLocation.S3 location, String uri, String checksum)
      throws IOException {
    String head = "s3://" + location.bucket() + "/";
    if (!uri.startsWith(head)) {
      return "output " + uri + " is not an object of s3://" + location.bucket();
    }
    try {
      S3Objects.Read read = s3(spec, location.bucket()).read(uri.substring(head.length()));
      if (read == null) {
        return "output " + uri + " is missing";
      }
      return mismatch(uri, Checksums.of(read.bytes()), checksum);
    } catch (SdkException e) {
      throw new IOException("cannot read " + uri + ": " + e.getMessage(), e);
    }
  }

  private S3Objects s3(PublishSpec spec, String bucket) {
    return buckets.computeIfAbsent(
        spec.s3() + "\n" + bucket, k -> S3Objects.open(spec.s3(), bucket));
  }

  /**
   * Aborts the multipart uploads under an S3 output begun before {@code cutoff} (what a killed
   * archive upload leaves; single PUTs leave nothing); returns how many.
   *
   * @throws IOException when the uploads cannot be listed
   */
  public long abortOrphanUploads(PublishSpec spec, Instant cutoff) throws IOException {
    OutputLocation.S3 location = (OutputLocation.S3) spec.location();
    try {
      return s3(spec, location.bucket()).abortUploadsBefore(location.objectName(""), cutoff);
    } catch (SdkException e) {
      throw new IOException("cannot list " + location.describe() + ": " + e.getMessage(), e);
    }
  }

  private String rowsProblem(OutputLocation.PostGis table, String checksum, TileId tile)
      throws IOException {
    try {
      Connection c = connections.get(table.jdbcUrl());
      if (c == null) {
        c = PgConnections.openData(table.jdbcUrl());
        connections.put(table.jdbcUrl(), c);
      }
      // A tile without features is published as no rows: its digest is the empty one.
      PostGisTables.TileDigest held = PostGisTables.digest(c, table, tile);
      return mismatch(table.describe() + " " + tile, held.checksum(), checksum);
    } catch (SQLException e) {
      throw new IOException("cannot read " + table.describe() + ": " + e.getMessage(), e);
    }
  }

  private static String mismatch(String what, String actual, String recorded) {
    return actual.equals(recorded)
        ? null
        : "output " + what + " has checksum " + actual + ", the ledger says " + recorded;
  }

  /**
   * Deletes the temporary objects under a GCS output created before {@code cutoff}; returns how
   * many. A younger one may belong to a live attempt and is left alone.
   *
   * @throws IOException when the bucket cannot be listed
   */
  public long deleteOrphanObjects(PublishSpec spec, Instant cutoff) throws IOException {
    OutputLocation.Gcs gcs = (OutputLocation.Gcs) spec.location();
    Storage storage = clients.computeIfAbsent(spec.gcs(), GcsSettings::open);
    long deleted = 0;
    try {
      for (Blob b :
          storage
              .list(gcs.bucket(), Storage.BlobListOption.prefix(GcsTileSink.tempPrefix(gcs)))
              .iterateAll()) {
        if (b.getCreateTimeOffsetDateTime() != null
            && b.getCreateTimeOffsetDateTime().toInstant().isBefore(cutoff)
            && storage.delete(b.getBlobId())) {
          deleted++;
        }
      }
    } catch (StorageException e) {
      throw new IOException("cannot list " + gcs.describe() + ": " + e.getMessage(), e);
    }
    return deleted;
  }

  @Override
  public void close() {
    clients.values().forEach(GcsSettings::closeQuietly);
    buckets.values().forEach(S3Objects::close);
    for (Connection c : connections.values()) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // Closing a read-only connection loses nothing.
      }
    }
  }
}
