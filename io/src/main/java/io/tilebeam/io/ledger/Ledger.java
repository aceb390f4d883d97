package io.tilebeam.io.ledger;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileFailure;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The ledger's statements, each one round trip for a whole batch. The ledger is the source of
 * truth: its primary key prevents duplicate rows, its clock stamps every time, and a claim is owned
 * by a run id so that a retried bundle of the same run re-enters its own claims.
 *
 * <p>Not thread-safe: one instance per connection.
 */
public final class Ledger implements AutoCloseable {

  private static final String CLAIM =
      "WITH input AS ("
          + " SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::bigint[],"
          + " ?::bigint[]) AS i(work_key, namespace, layer, tile_matrix_set, z, x, y)),"
          + " claimed AS ("
          + " INSERT INTO tiles AS t (work_key, namespace, layer, tile_matrix_set, z, x, y, run_id,"
          + " claimed_at)"
          + " SELECT work_key, namespace, layer, tile_matrix_set, z, x, y, ?, now() FROM input"
          + " ORDER BY work_key" // one lock order for every run: concurrent batches cannot deadlock
          + " ON CONFLICT (work_key) DO UPDATE SET run_id = EXCLUDED.run_id, claimed_at = now(),"
          + " failed_at = NULL,"
          + " attempts = t.attempts + CASE WHEN t.run_id = EXCLUDED.run_id THEN 0 ELSE 1 END"
          + " WHERE t.completed_at IS NULL"
          + " AND (t.failed_at IS NULL OR ?)"
          + " AND (t.run_id = EXCLUDED.run_id OR t.failed_at IS NOT NULL"
          + " OR t.claimed_at < now() - make_interval(secs => ?))"
          + " RETURNING t.work_key)"
          // Why a key was not claimed is looked up only for keys that were not: a scalar subquery
          // in a CASE branch runs only when reached, and on a first run no key reaches it.
          + " SELECT i.work_key, CASE WHEN c.work_key IS NOT NULL THEN 'CLAIMED'"
          + " ELSE (SELECT CASE WHEN t.completed_at IS NOT NULL THEN 'COMPLETED'"
          + " WHEN t.failed_at IS NOT NULL THEN 'FAILED' ELSE 'IN_FLIGHT' END"
          + " FROM tiles t WHERE t.work_key = i.work_key) END"
          + " FROM input i LEFT JOIN claimed c ON c.work_key = i.work_key";

  private static final String COMPLETE =
      "UPDATE tiles AS t SET completed_at = COALESCE(t.completed_at, now()), output_uri = u.uri,"
          + " checksum = u.checksum, feature_count = u.features, failed_at = NULL,"
          + " error_class = NULL, error_message = NULL"
          + " FROM unnest(?::text[], ?::text[], ?::text[], ?::bigint[])"
          + " AS u(work_key, uri, checksum, features)"
          + " WHERE t.work_key = u.work_key AND t.run_id = ?"
          + " AND (t.completed_at IS NULL OR t.checksum = u.checksum)"
          + " RETURNING t.work_key";

  private static final String FAIL =
      "UPDATE tiles AS t SET failed_at = now(), error_class = u.error_class,"
          + " error_message = u.error_message"
          + " FROM unnest(?::text[], ?::text[], ?::text[]) AS u(work_key, error_class, error_message)"
          + " WHERE t.work_key = u.work_key AND t.run_id = ? AND t.completed_at IS NULL"
          + " RETURNING t.work_key";

  /**
   * The state of each given key that has a row, as {@code (work_key, s)}: one definition for both
   * readers below. Parameters: the stale window in seconds, the keys (sorted, so that neighbouring
   * probes share index pages). One primary-key probe a key, always: the lateral subquery with its
   * {@code LIMIT} cannot be flattened into a join, which PostgreSQL plans as a hash join over the
   * whole table from a few thousand keys on (a scan of every row of a large ledger a statement);
   * {@code = ANY(array)} is planned as a bitmap scan, which reads more than the probes.
   */
  private static final String STATES =
      "SELECT k.work_key, CASE WHEN t.completed_at IS NOT NULL THEN 'COMPLETED'"
          + " WHEN t.failed_at IS NOT NULL THEN 'FAILED'"
          + " WHEN t.claimed_at < now() - make_interval(secs => ?) THEN 'STALE'"
          + " ELSE 'IN_FLIGHT' END AS s"
          + " FROM unnest(?::text[]) AS k(work_key) CROSS JOIN LATERAL"
          + " (SELECT completed_at, failed_at, claimed_at FROM tiles"
          + " WHERE tiles.work_key = k.work_key LIMIT 1) AS t";

  /** The checksum and feature count of each given key that is completed; one probe a key. */
  private static final String COMPLETIONS =
      "SELECT k.work_key, t.checksum, t.feature_count"
          + " FROM unnest(?::text[]) AS k(work_key) CROSS JOIN LATERAL"
          + " (SELECT checksum, feature_count FROM tiles"
          + " WHERE tiles.work_key = k.work_key AND completed_at IS NOT NULL LIMIT 1) AS t";

  private static final String STATE_COUNTS =
      "SELECT s, count(*) FROM (" + STATES + ") AS q GROUP BY s";

  private final Connection connection;
  private long roundTrips;

  private Ledger(Connection connection) {
    this.connection = connection;
  }

  /**
   * Connects to the ledger. The schema must have been migrated ({@link LedgerSchema}).
   *
   * @throws LedgerUnavailableException when the server cannot be reached
   */
  public static Ledger open(LedgerConfig config) {
    // Each statement is its own transaction (JDBC's default auto-commit): a batch claims whole.
    return new Ledger(config.open());
  }

  /**
   * The ledger reached through {@code connection}, in whatever transaction it is in: for a sink
   * that completes tiles in the same transaction as their rows. The connection's search path must
   * lead to the ledger's schema; the caller keeps the connection.
   */
  public static Ledger on(Connection connection) {
    return new Ledger(connection);
  }

  /** How many statements this instance has sent. */
  public long roundTrips() {
    return roundTrips;
  }

  /**
   * Claims a batch of distinct keys for {@code runId} in one statement. New keys, keys this run
   * already owns, claims older than {@code staleAfter} and, with {@code retryFailed}, keys that
   * failed in another run are claimed; the rest say why not.
   *
   * @throws SQLException when the statement fails
   */
  public Map<WorkKey, ClaimState> claim(
      String runId,
      Duration staleAfter,
      boolean retryFailed,
      List<Map.Entry<WorkKey, TileWork>> batch)
      throws SQLException {
    Map<WorkKey, ClaimState> states = new HashMap<>();
    if (batch.isEmpty()) {
      return states;
    }
    try (PreparedStatement st = connection.prepareStatement(CLAIM)) {
      st.setArray(1, texts(batch, e -> e.getKey().value()));
      st.setArray(2, texts(batch, e -> e.getValue().namespace()));
      st.setArray(3, texts(batch, e -> e.getValue().layer()));
      st.setArray(4, texts(batch, e -> e.getValue().tileMatrixSet()));
      st.setArray(5, array("int4", batch, e -> e.getValue().tile().z()));
      st.setArray(6, array("int8", batch, e -> e.getValue().tile().x()));
      st.setArray(7, array("int8", batch, e -> e.getValue().tile().y()));
      st.setString(8, runId);
      st.setBoolean(9, retryFailed);
      st.setDouble(10, staleAfter.toMillis() / 1000.0);
      roundTrips++;
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          states.put(new WorkKey(rs.getString(1)), ClaimState.valueOf(rs.getString(2)));
        }
      }
    }
    return states;
  }

  /**
   * Marks published tiles completed, in one statement, where {@code runId} still owns the claim.
   * Returns the keys that were committed; a key missing from it lost its claim to another run.
   *
   * @throws SQLException when the statement fails
   */
  public List<WorkKey> complete(String runId, List<PublishResult> batch) throws SQLException {
    try (PreparedStatement st = connection.prepareStatement(COMPLETE)) {
      st.setArray(1, texts(batch, r -> r.key().value()));
      st.setArray(2, texts(batch, PublishResult::uri));
      st.setArray(3, texts(batch, PublishResult::checksum));
      st.setArray(4, array("int8", batch, PublishResult::featureCount));
      st.setString(5, runId);
      return keys(st);
    }
  }

  /**
   * Marks failed tiles with their error class and message, where {@code runId} owns the claim.
   *
   * @throws SQLException when the statement fails
   */
  public List<WorkKey> fail(String runId, List<TileFailure> batch) throws SQLException {
    try (PreparedStatement st = connection.prepareStatement(FAIL)) {
      st.setArray(1, texts(batch, f -> f.key().value()));
      st.setArray(2, texts(batch, TileFailure::errorClass));
      st.setArray(3, texts(batch, f -> truncate(f.message(), 4000)));
      st.setString(4, runId);
      return keys(st);
    }
  }

  /**
   * How many of these distinct keys are in each state, without claiming anything and without
   * sending the keys back: keys absent from the ledger count as {@link ClaimState#PENDING}.
   *
   * @throws SQLException when the statement fails
   */
  public Map<ClaimState, Long> stateCounts(List<WorkKey> keys, Duration staleAfter)
      throws SQLException {
    Map<ClaimState, Long> counts = new java.util.EnumMap<>(ClaimState.class);
    long found = 0;
    try (PreparedStatement st = connection.prepareStatement(STATE_COUNTS)) {
      st.setDouble(1, staleAfter.toMillis() / 1000.0);
      st.setArray(2, sortedTexts(keys));
      roundTrips++;
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          counts.put(ClaimState.valueOf(rs.getString(1)), rs.getLong(2));
          found += rs.getLong(2);
        }
      }
    }
    if (keys.size() > found) {
      counts.put(ClaimState.PENDING, keys.size() - found);
    }
    return counts;
  }

  /**
   * The state of each key without claiming anything; keys absent from the ledger are {@link
   * ClaimState#PENDING}.
   *
   * @throws SQLException when the statement fails
   */
  public Map<WorkKey, ClaimState> states(List<WorkKey> keys, Duration staleAfter)
      throws SQLException {
    Map<WorkKey, ClaimState> states = new HashMap<>();
    keys.forEach(k -> states.put(k, ClaimState.PENDING));
    try (PreparedStatement st = connection.prepareStatement(STATES)) {
      st.setDouble(1, staleAfter.toMillis() / 1000.0);
      st.setArray(2, sortedTexts(keys));
      roundTrips++;
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          states.put(new WorkKey(rs.getString(1)), ClaimState.valueOf(rs.getString(2)));
        }
      }
    }
    return states;
  }

  /**
   * What a completed tile was published as: the checksum of its bytes and its feature count.
   *
   * @param checksum {@code sha256:<hex>}
   * @param features how many features it holds (1 for a raster tile)
   */
  public record Completion(String checksum, long features) {}

  /**
   * The completion of each given key that is completed; keys not completed (absent, in flight or
   * failed) are left out.
   *
   * @throws SQLException when the statement fails
   */
  public Map<WorkKey, Completion> completions(List<WorkKey> keys) throws SQLException {
    Map<WorkKey, Completion> out = new HashMap<>();
    try (PreparedStatement st = connection.prepareStatement(COMPLETIONS)) {
      st.setArray(1, sortedTexts(keys));
      roundTrips++;
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          out.put(new WorkKey(rs.getString(1)), new Completion(rs.getString(2), rs.getLong(3)));
        }
      }
    }
    return out;
  }

  /**
   * Records the start of a run and how many tiles it planned (for its progress); recording it again
   * changes nothing, so the statement can be retried after a lost answer.
   *
   * @throws SQLException when the statement fails
   */
  public void startRun(String runId, String jobDigest, long planned) throws SQLException {
    try (PreparedStatement st =
        connection.prepareStatement(
            "INSERT INTO runs (run_id, status, job_digest, planned) VALUES (?, 'running', ?, ?)"
                + " ON CONFLICT (run_id) DO NOTHING")) {
      st.setString(1, runId);
      st.setString(2, jobDigest);
      st.setLong(3, planned);
      roundTrips++;
      st.executeUpdate();
    }
  }

  /**
   * Adds to a run's progress: tiles claimed, skipped (completed, in flight elsewhere or failed
   * before) and done (published or failed).
   *
   * @throws SQLException when the statement fails
   */
  public void addProgress(String runId, long claimed, long skipped, long done) throws SQLException {
    try (PreparedStatement st =
        connection.prepareStatement(
            "UPDATE runs SET claimed = claimed + ?, skipped = skipped + ?, done = done + ?,"
                + " progress_at = now() WHERE run_id = ?")) {
      st.setLong(1, claimed);
      st.setLong(2, skipped);
      st.setLong(3, done);
      st.setString(4, runId);
      roundTrips++;
      st.executeUpdate();
    }
  }

  /**
   * A run's progress as its workers counted it, or null for an unknown run.
   *
   * @throws SQLException when the statement fails
   */
  public RunProgress progress(String runId) throws SQLException {
    return progressOf(runId);
  }

  /** Adds features read and pieces cut to a run's progress, in one statement. */
  public void addCutProgress(String runId, long features, long pieces) throws SQLException {
    addCutProgress(runId, features, pieces, java.util.Map.of());
  }

  /**
   * Adds features read, pieces cut and features left out of zooms as smaller than the minimum size
   * ({@code belowMinSize}, by zoom) to a run's progress, in one statement.
   */
  public void addCutProgress(
      String runId, long features, long pieces, java.util.Map<Integer, Long> belowMinSize)
      throws SQLException {
    // The counts by zoom are a JSON object added key by key to the row's, under the row's lock.
    try (PreparedStatement st =
        connection.prepareStatement(
            "UPDATE runs SET features_read = features_read + ?, pieces_cut = pieces_cut + ?,"
                + " below_min_size = CASE WHEN ?::jsonb = '{}'::jsonb THEN below_min_size ELSE"
                + " (SELECT jsonb_object_agg(k, coalesce((below_min_size ->> k)::bigint, 0)"
                + " + coalesce((?::jsonb ->> k)::bigint, 0))"
                + " FROM (SELECT jsonb_object_keys(below_min_size)"
                + " UNION SELECT jsonb_object_keys(?::jsonb)) AS keys(k)) END,"
                + " progress_at = now() WHERE run_id = ?")) {
      String byZoom = ZoomCounts.of(belowMinSize).toJson();
      st.setLong(1, features);
      st.setLong(2, pieces);
      st.setString(3, byZoom);
      st.setString(4, byZoom);
      st.setString(5, byZoom);
      st.setString(6, runId);
      roundTrips++;
      st.executeUpdate();
    }
  }

  private RunProgress progressOf(String runId) throws SQLException {
    try (PreparedStatement st =
        connection.prepareStatement(
            "SELECT coalesce(planned, 0), claimed, skipped, done,"
                + " extract(epoch FROM now() - started_at), features_read, pieces_cut,"
                + " below_min_size::text FROM runs WHERE run_id = ?")) {
      st.setString(1, runId);
      roundTrips++;
      try (ResultSet rs = st.executeQuery()) {
        return rs.next()
            ? new RunProgress(
                rs.getLong(1),
                rs.getLong(2),
                rs.getLong(3),
                rs.getLong(4),
                java.time.Duration.ofMillis((long) (rs.getDouble(5) * 1000)),
                rs.getLong(6),
                rs.getLong(7),
                ZoomCounts.fromJson(rs.getString(8)))
            : null;
      }
    }
  }

  /**
   * Records the end of a run with its status and counts (a JSON object).
   *
   * @throws SQLException when the statement fails
   */
  public void endRun(String runId, String status, String countsJson) throws SQLException {
    try (PreparedStatement st =
        connection.prepareStatement(
            "UPDATE runs SET ended_at = now(), status = ?, counts = ?::jsonb WHERE run_id = ?")) {
      st.setString(1, status);
      st.setString(2, countsJson);
      st.setString(3, runId);
      roundTrips++;
      st.executeUpdate();
    }
  }

  private List<WorkKey> keys(PreparedStatement st) throws SQLException {
    roundTrips++;
    List<WorkKey> out = new java.util.ArrayList<>();
    try (ResultSet rs = st.executeQuery()) {
      while (rs.next()) {
        out.add(new WorkKey(rs.getString(1)));
      }
    }
    return out;
  }

  /** Keys as a text array in ascending order: index probes in order touch each page once. */
  private Array sortedTexts(List<WorkKey> keys) throws SQLException {
    List<String> sorted = new ArrayList<>(keys.size());
    keys.forEach(k -> sorted.add(k.value()));
    Collections.sort(sorted);
    return texts(sorted, k -> k);
  }

  private <T> Array texts(List<T> items, Function<T, String> f) throws SQLException {
    return SqlArrays.of(connection, "text", items, f);
  }

  private <T> Array array(String type, List<T> items, Function<T, Object> f) throws SQLException {
    return SqlArrays.of(connection, type, items, f);
  }

  private static String truncate(String s, int max) {
    String v = s == null ? "" : s;
    return v.length() <= max ? v : v.substring(0, max);
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
