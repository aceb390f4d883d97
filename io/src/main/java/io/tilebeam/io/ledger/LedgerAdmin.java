package io.tilebeam.io.ledger;

import io.tilebeam.transforms.key.WorkKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger statements of the operator commands ({@code status}, {@code reap}, {@code verify}):
 * reading counts and runs, releasing claims, retiring rows. The pipeline's own statements are in
 * {@link Ledger}.
 *
 * <p>Not thread-safe: one instance per connection.
 */
public final class LedgerAdmin implements AutoCloseable {

  private final Connection connection;

  private LedgerAdmin(Connection connection) {
    this.connection = connection;
  }

  /**
   * Connects to the ledger. The schema must have been migrated ({@link LedgerSchema}).
   *
   * @throws LedgerUnavailableException when the server cannot be reached
   */
  public static LedgerAdmin open(LedgerConfig config) {
    return new LedgerAdmin(config.open());
  }

  /**
   * Releases the unfinished claims of {@code runId} at once (the run is known to be dead), and
   * marks the run abandoned. Returns how many claims were released.
   *
   * @throws SQLException when the statement fails
   */
  public int releaseRun(String runId) throws SQLException {
    int released =
        update(
            "DELETE FROM tiles WHERE run_id = ? AND completed_at IS NULL AND failed_at IS NULL",
            st -> st.setString(1, runId));
    update(
        "UPDATE runs SET status = 'abandoned', ended_at = now() WHERE run_id = ?"
            + " AND ended_at IS NULL",
        st -> st.setString(1, runId));
    return released;
  }

  /**
   * Releases every unfinished claim, and marks the runs that never recorded their end abandoned.
   * Only for a ledger that one process holds exclusively (the embedded one): there, no other run
   * can be alive, whether it was killed or failed. Returns how many claims were released.
   *
   * @throws SQLException when a statement fails
   */
  public int releaseAllClaims() throws SQLException {
    int released =
        update("DELETE FROM tiles WHERE completed_at IS NULL AND failed_at IS NULL", st -> {});
    update(
        "UPDATE runs SET status = 'abandoned', ended_at = now() WHERE ended_at IS NULL", st -> {});
    return released;
  }

  /**
   * Releases every unfinished claim older than {@code olderThan} by the database clock. Returns how
   * many claims were released.
   *
   * @throws SQLException when the statement fails
   */
  public int releaseStale(Duration olderThan) throws SQLException {
    return update(
        "DELETE FROM tiles WHERE completed_at IS NULL AND failed_at IS NULL"
            + " AND claimed_at < now() - make_interval(secs => ?)",
        st -> st.setDouble(1, olderThan.toMillis() / 1000.0));
  }

  /**
   * Deletes the rows of these keys: the first step of retiring output, so that a missing row costs
   * a rebuild instead of a stale row leaving a hole.
   *
   * @throws SQLException when the statement fails
   */
  public int forget(List<WorkKey> keys) throws SQLException {
    return update(
        "DELETE FROM tiles WHERE work_key = ANY(?::text[])",
        st -> st.setArray(1, SqlArrays.of(connection, "text", keys, WorkKey::value)));
  }

  /**
   * The completed rows of a namespace, in key order, for {@code verify}.
   *
   * @throws SQLException when the statement fails
   */
  public List<CompletedRow> completed(String namespace) throws SQLException {
    return query(
        "SELECT work_key, layer, z, x, y, output_uri, checksum, feature_count FROM tiles"
            + " WHERE namespace = ? AND completed_at IS NOT NULL ORDER BY work_key",
        st -> st.setString(1, namespace),
        rs ->
            new CompletedRow(
                new WorkKey(rs.getString(1)),
                rs.getString(2),
                rs.getInt(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getString(6),
                rs.getString(7),
                rs.getLong(8)));
  }

  /** A completed ledger row: the tile and the output it records. */
  public record CompletedRow(
      WorkKey key,
      String layer,
      int z,
      long x,
      long y,
      String outputUri,
      String checksum,
      long featureCount) {}

  /**
   * Per namespace, layer and zoom: completed, failed, in-flight and stale counts; for {@code
   * status}. {@code namespace} null means every namespace.
   *
   * @throws SQLException when the statement fails
   */
  public List<StatusRow> status(String namespace, Duration staleAfter) throws SQLException {
    double secs = staleAfter.toMillis() / 1000.0;
    return query(
        "SELECT namespace, layer, z,"
            + " count(*) FILTER (WHERE completed_at IS NOT NULL),"
            + " count(*) FILTER (WHERE completed_at IS NULL AND failed_at IS NOT NULL),"
            + " count(*) FILTER (WHERE completed_at IS NULL AND failed_at IS NULL"
            + "   AND claimed_at >= now() - make_interval(secs => ?)),"
            + " count(*) FILTER (WHERE completed_at IS NULL AND failed_at IS NULL"
            + "   AND claimed_at < now() - make_interval(secs => ?))"
            + " FROM tiles WHERE (?::text IS NULL OR namespace = ?)"
            + " GROUP BY namespace, layer, z ORDER BY namespace, layer, z",
        st -> {
          st.setDouble(1, secs);
          st.setDouble(2, secs);
          st.setString(3, namespace);
          st.setString(4, namespace);
        },
        rs ->
            new StatusRow(
                rs.getString(1),
                rs.getString(2),
                rs.getInt(3),
                rs.getLong(4),
                rs.getLong(5),
                rs.getLong(6),
                rs.getLong(7)));
  }

  /** Counts of one namespace, layer and zoom. */
  public record StatusRow(
      String namespace,
      String layer,
      int z,
      long completed,
      long failed,
      long inFlight,
      long stale) {}

  /**
   * The most recent runs, newest first, as {@code run_id, started_at, ended_at, status, counts}.
   *
   * @throws SQLException when the statement fails
   */
  public List<List<String>> recentRuns(int limit) throws SQLException {
    return query(
        "SELECT run_id, started_at::text, coalesce(ended_at::text, ''), status,"
            // A run still going shows how far its workers have counted.
            + " coalesce(counts::text, CASE WHEN ended_at IS NULL THEN format('progress: planned"
            + " %s, claimed %s, skipped %s, done %s', coalesce(planned, 0), claimed, skipped,"
            + " done) ELSE '' END) FROM runs ORDER BY started_at DESC LIMIT ?",
        st -> st.setInt(1, limit),
        rs ->
            List.of(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5)));
  }

  /** Binds a statement's parameters. */
  private interface Binder {
    void bind(PreparedStatement st) throws SQLException;
  }

  /** Reads one result row. */
  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private <T> List<T> query(String sql, Binder binder, RowReader<T> reader) throws SQLException {
    List<T> rows = new ArrayList<>();
    try (PreparedStatement st = connection.prepareStatement(sql)) {
      binder.bind(st);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          rows.add(reader.read(rs));
        }
      }
    }
    return rows;
  }

  private int update(String sql, Binder binder) throws SQLException {
    try (PreparedStatement st = connection.prepareStatement(sql)) {
      binder.bind(st);
      return st.executeUpdate();
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // Closing a broken connection has nothing left to release.
    }
  }
}
