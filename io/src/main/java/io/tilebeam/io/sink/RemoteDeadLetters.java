package io.tilebeam.io.sink;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.S3Objects;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Dead letters for outputs that are not directories: for a GCS prefix, the objects {@code
 * <prefix>/_failed/<layer>/features.jsonl} and {@code tiles.jsonl}, each kept the sorted union of
 * its records by a read and a write with a generation precondition (a concurrent writer makes the
 * write fail and it is redone); for an S3 prefix, the same objects kept so by a read and a write
 * conditional on the ETag read ({@code If-Match}, or {@code If-None-Match: *} for a first record);
 * for a PostGIS table, the table {@code <table>_failed} with one row per record of either kind.
 */
final class RemoteDeadLetters {

  private static final int MAX_CONFLICTS = 20;

  private RemoteDeadLetters() {}

  /** The object name of a layer's dead-letter file {@code fileName} under a GCS output. */
  static String objectName(OutputLocation.Gcs gcs, String layer, String fileName) {
    return gcs.objectName(DeadLetters.FAILED_DIR + "/" + layer + "/" + fileName);
  }

  /**
   * Adds {@code lines} to the layer's dead-letter object; returns how many records it holds.
   *
   * @throws IOException when the object cannot be read or written
   */
  static int mergeIntoObject(
      PublishSpec spec, String layer, String fileName, SortedSet<String> lines) throws IOException {
    OutputLocation.Gcs gcs = (OutputLocation.Gcs) spec.location();
    BlobId id = BlobId.of(gcs.bucket(), objectName(gcs, layer, fileName));
    Storage storage = spec.gcs().open();
    Retrier retrier = Retrier.of(spec.gcs().retry(), GcsSettings::isTransient);
    try {
      for (int conflicts = 0; ; conflicts++) {
        Blob current = retrier.call("read " + id.getName(), () -> storage.get(id));
        SortedSet<String> existing = new TreeSet<>();
        if (current != null) {
          byte[] content;
          try {
            content = retrier.call("download " + id.getName(), current::getContent);
          } catch (StorageException e) {
            if (e.getCode() != 404 || conflicts >= MAX_CONFLICTS) {
              throw e;
            }
            continue; // replaced between the metadata read and the download: read again
          }
          existing.addAll(records(content));
        }
        SortedSet<String> all = DeadLetterRecords.merge(existing, lines);
        if (current != null && all.equals(existing)) {
          return all.size(); // nothing new
        }
        String text = text(all);
        long generation = current == null ? 0L : current.getGeneration();
        try {
          retrier.call(
              "write " + id.getName(),
              () ->
                  storage.create(
                      BlobInfo.newBuilder(id).setContentType("application/x-ndjson").build(),
                      text.getBytes(StandardCharsets.UTF_8),
                      BlobTargetOption.generationMatch(generation)));
          return all.size();
        } catch (StorageException e) {
          if (e.getCode() != 412 || conflicts >= MAX_CONFLICTS) {
            throw e;
          }
        }
      }
    } catch (StorageException e) {
      throw new IOException(
          "dead letters gs://" + id.getBucket() + "/" + id.getName() + ": " + e, e);
    } finally {
      GcsSettings.closeQuietly(storage);
    }
  }

  /**
   * Adds {@code lines} to the layer's dead-letter object under an S3 output; returns how many
   * records it holds.
   *
   * @throws IOException when the object cannot be read or written
   */
  static int mergeIntoS3(PublishSpec spec, String layer, String fileName, SortedSet<String> lines)
      throws IOException {
    OutputLocation.S3 location = (OutputLocation.S3) spec.location();
    String key = location.objectName(DeadLetters.FAILED_DIR + "/" + layer + "/" + fileName);
    try (S3Objects s3 = S3Objects.open(spec.s3(), location.bucket())) {
      for (int conflicts = 0; ; conflicts++) {
        S3Objects.Read current = s3.read(key);
        SortedSet<String> existing = current == null ? new TreeSet<>() : records(current.bytes());
        SortedSet<String> all = DeadLetterRecords.merge(existing, lines);
        if (current != null && all.equals(existing)) {
          return all.size(); // nothing new
        }
        try {
          s3.put(
              key,
              text(all).getBytes(StandardCharsets.UTF_8),
              "application/x-ndjson",
              Map.of(),
              current == null ? null : current.etag());
          return all.size();
        } catch (S3Objects.Conflict e) {
          if (conflicts >= MAX_CONFLICTS) {
            throw new IOException("dead letters " + s3.uri(key) + ": " + e.getMessage(), e);
          }
        }
      }
    } catch (SdkException e) {
      throw new IOException("dead letters s3://" + location.bucket() + "/" + key + ": " + e, e);
    }
  }

  /**
   * Adds {@code lines} to the table's dead-letter table; returns how many records it holds.
   *
   * @throws IOException when the table cannot be written
   */
  static int mergeIntoTable(PublishSpec spec, SortedSet<String> lines) throws IOException {
    OutputLocation.PostGis table = (OutputLocation.PostGis) spec.location();
    String name = '"' + table.schema() + "\".\"" + failedTable(table) + '"';
    try (Connection c = PgConnections.openData(table.jdbcUrl());
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + name + " (record text COLLATE \"C\" PRIMARY KEY)");
      try (PreparedStatement st =
          c.prepareStatement("INSERT INTO " + name + " VALUES (?) ON CONFLICT DO NOTHING")) {
        // Folded within the batch; rows of earlier runs stay as they were written.
        for (String line : DeadLetterRecords.fold(lines)) {
          st.setString(1, line);
          st.addBatch();
        }
        st.executeBatch();
      }
      try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + name)) {
        r.next();
        return r.getInt(1);
      }
    } catch (SQLException e) {
      throw new IOException("dead letters " + name + ": " + e.getMessage(), e);
    }
  }

  /** The records of a dead-letter object: its non-empty lines. */
  private static SortedSet<String> records(byte[] content) {
    SortedSet<String> out = new TreeSet<>();
    for (String l : new String(content, StandardCharsets.UTF_8).split("\n")) {
      if (!l.isEmpty()) {
        out.add(l);
      }
    }
    return out;
  }

  /** A dead-letter object's text: one record a line. */
  private static String text(SortedSet<String> records) {
    StringBuilder text = new StringBuilder();
    records.forEach(l -> text.append(l).append('\n'));
    return text.toString();
  }

  /** The dead-letter table of a PostGIS output table. */
  static String failedTable(OutputLocation.PostGis table) {
    String base = table.table();
    return (base.length() > 56 ? base.substring(0, 56) : base) + "_failed";
  }
}
