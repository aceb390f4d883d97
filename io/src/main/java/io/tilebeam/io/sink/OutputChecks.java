package io.tilebeam.io.sink;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.S3Objects;
import io.tilebeam.io.storage.S3Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Checks, before anything is written, that an output can be written: the directory is writable, the
 * bucket exists, the database has PostGIS. A run that would fail on its first tile is refused at
 * once instead.
 */
public final class OutputChecks {

  private OutputChecks() {}

  /**
   * Checks {@code spec}'s output.
   *
   * @throws IllegalArgumentException saying what is wrong with the output location
   */
  public static void check(PublishSpec spec) {
    OutputLocation location = spec.location();
    if (location instanceof OutputLocation.Local local) {
      checkDirectory(local.root());
    } else if (location instanceof OutputLocation.Gcs gcs) {
      checkBucket(spec.gcs(), gcs);
    } else if (location instanceof OutputLocation.S3 s3) {
      checkS3Bucket(spec.s3(), s3);
    } else if (location instanceof OutputLocation.PostGis table) {
      checkDatabase(table);
    }
  }

  private static void checkDirectory(Path root) {
    Path existing = root.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
      throw new IllegalArgumentException("is not a writable directory");
    }
  }

  private static void checkBucket(GcsSettings settings, OutputLocation.Gcs gcs) {
    Storage storage = settings.open();
    try {
      // A failure that may pass is retried; one that outlasts the retries is no fault of the job.
      if (Retrier.of(settings.retry(), GcsSettings::isTransient)
              .call("look up bucket " + gcs.bucket(), () -> storage.get(gcs.bucket()))
          == null) {
        throw new IllegalArgumentException("bucket '" + gcs.bucket() + "' does not exist");
      }
    } catch (StorageException e) {
      if (GcsSettings.isTransient(e)) {
        throw new IllegalStateException(
            "cannot reach bucket '" + gcs.bucket() + "' (" + e.getCode() + "): " + e.getMessage(),
            e);
      }
      throw new IllegalArgumentException(
          "bucket '" + gcs.bucket() + "' cannot be used (" + e.getCode() + "): " + e.getMessage(),
          e);
    } finally {
      GcsSettings.closeQuietly(storage);
    }
  }

  /**
   * A missing bucket is the job's fault (exit 2); credentials refused (403) or a store that cannot
   * be reached are the environment's (exit 1), as is anything else the store says.
   */
  private static void checkS3Bucket(S3Settings settings, OutputLocation.S3 location) {
    try (S3Objects s3 = S3Objects.open(settings, location.bucket())) {
      if (!s3.bucketExists()) {
        throw new IllegalArgumentException("bucket '" + location.bucket() + "' does not exist");
      }
    } catch (SdkException e) {
      int status = S3Settings.status(e);
      throw new IllegalStateException(
          (status == 0 ? "cannot reach" : "cannot use")
              + " bucket '"
              + location.bucket()
              + "' at "
              + (settings.endpoint() == null ? "AWS S3" : settings.endpoint())
              + (status == 0 ? "" : " (" + status + ")")
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static void checkDatabase(OutputLocation.PostGis table) {
    try (Connection c = PgConnections.openData(table.jdbcUrl());
        PreparedStatement s =
            c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'postgis'),"
                    + " EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ?)")) {
      s.setString(1, table.schema());
      try (ResultSet r = s.executeQuery()) {
        r.next();
        if (!r.getBoolean(1)) {
          throw new IllegalArgumentException(
              "the database has no PostGIS extension (CREATE EXTENSION postgis)");
        }
        if (!r.getBoolean(2)) {
          throw new IllegalArgumentException("schema '" + table.schema() + "' does not exist");
        }
      }
    } catch (SQLException e) {
      if (PgConnections.connectionFailed(e)) {
        // Unreachable is not a fault of the job: the server may be down or the network sick.
        throw new IllegalStateException("cannot reach the output database " + e.getMessage(), e);
      }
      throw new IllegalArgumentException("cannot be used: " + e.getMessage(), e);
    }
  }
}
