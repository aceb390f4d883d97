package io.tilebeam.io.sink;

import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Publishes tiles as rows of a PostGIS table, one row per feature: {@code (z, x, y, feature_id,
 * work_key, properties jsonb, geom geometry(Geometry, <srid>))}, keyed on z, x, y and feature id.
 * The table and its spatial index are created when missing.
 *
 * <p>Each tile is one transaction: take the tile's advisory lock (two writers of one tile queue up
 * instead of mixing rows), delete the tile's rows, insert the new ones in batches, read them back
 * (row count and a SHA-256 over feature id, WKB and properties as the database holds them), and,
 * when the table lives in the ledger's database, mark the ledger row completed with the owner
 * check, then commit. A reader sees the tile's old rows or its new ones, never a mix.
 *
 * <p>When the table lives in another database, the rows commit first and the ledger completion
 * follows in the graph's last stage. A crash between the two leaves the tile published but not
 * completed: a rerun claims it again and replaces its rows with the same rows, so the published
 * result is still the same. Only the completion, not the rows, can be lost.
 */
public final class PostGisTileSink implements TileSink {

  /** The boundaries between a publish's steps, where a process can die. */
  enum Step {
    /** The tile's old rows are deleted (uncommitted). */
    ROWS_DELETED,
    /** The new rows are inserted (uncommitted). */
    ROWS_INSERTED,
    /** The rows read back with the right count. */
    READ_BACK,
    /** The ledger row is marked completed (uncommitted; same-database ledgers only). */
    LEDGER_COMPLETED,
    /** The transaction committed: the tile is published. */
    COMMITTED
  }

  private final OutputLocation.PostGis table;
  private final int srid;
  private final String runId;
  private final boolean ledgerHere;
  private final Connection connection;
  private final Ledger ledger;
  private final StepListener steps;

  /**
   * A sink for {@code spec}'s table, connected at once; tiles are completed in the same transaction
   * when {@code ledger} is the same database.
   *
   * @throws IOException when the database cannot be reached or the table cannot be created
   */
  public PostGisTileSink(PublishSpec spec, String runId, LedgerConfig ledger) throws IOException {
    this(spec, runId, ledger, StepListener.NONE);
  }

  PostGisTileSink(PublishSpec spec, String runId, LedgerConfig ledger, StepListener steps)
      throws IOException {
    this.steps = steps;
    this.table = (OutputLocation.PostGis) spec.location();
    this.srid = srid(spec.targetCrs());
    this.runId = runId;
    this.ledgerHere = ledger != null && ledger.jdbcUrl().equals(table.jdbcUrl());
    try {
      this.connection = ledgerHere ? ledger.connect() : PgConnections.openData(table.jdbcUrl());
      String ledgerSchema = ledgerHere ? ledger.schema() + ", " : "";
      try (PreparedStatement st =
          connection.prepareStatement("SELECT set_config('search_path', ?, false)")) {
        st.setString(1, ledgerSchema + PostGisTables.postgisSchema(connection) + ", public");
        st.execute();
      }
      PostGisTables.ensure(connection, table, srid);
      connection.setAutoCommit(false);
    } catch (SQLException e) {
      throw new IOException("PostGIS output " + table.describe() + ": " + e.getMessage(), e);
    }
    this.ledger = ledgerHere ? Ledger.on(connection) : null;
  }

  /** The SRID of a CRS: its EPSG code, 4326 for CRS84, or -1 when it has none. */
  public static int srid(CrsRef crs) {
    String id = crs.identity();
    if (id.startsWith("EPSG:")) {
      try {
        return Integer.parseInt(id.substring(5));
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return id.equals("OGC:CRS84") ? 4326 : -1;
  }

  /** The URI recorded in the ledger for a tile's rows: {@code postgis:schema.table/z/x/y}. */
  public static String tileUri(OutputLocation.PostGis table, TileWork work) {
    return "postgis:" + table.describe() + "/" + work.tile().path();
  }

  @Override
  public PublishResult publish(TileContent content) throws TileDataException, IOException {
    if (!(content instanceof RenderedTile tile)) {
      throw new TileDataException(
          "encode",
          "a PostGIS table holds features, not " + content.getClass().getSimpleName(),
          null);
    }
    TileWork work = tile.work();
    try {
      PostGisTables.lockTile(connection, table, work);
      PostGisTables.deleteTile(connection, table, work);
      steps.reached(Step.ROWS_DELETED);
      insert(tile);
      steps.reached(Step.ROWS_INSERTED);
      PostGisTables.TileDigest held = PostGisTables.digest(connection, table, work.tile());
      if (held.rows() != tile.features().size()) {
        throw new IllegalStateException(
            "the tile reads back with " + held.rows() + " rows, wrote " + tile.features().size());
      }
      steps.reached(Step.READ_BACK);
      PublishResult result =
          new PublishResult(
              tile.key(),
              work,
              tileUri(table, work),
              held.checksum(),
              held.rows(),
              Outcome.WRITTEN);
      if (ledgerHere) {
        if (ledger.complete(runId, List.of(result)).isEmpty()) {
          // Another run took the claim over; it publishes the same rows. Leave the tile to it.
          connection.rollback();
          return result;
        }
        steps.reached(Step.LEDGER_COMPLETED);
      }
      connection.commit();
      steps.reached(Step.COMMITTED);
      return result;
    } catch (SQLException e) {
      rollbackQuietly();
      if ("23505".equals(e.getSQLState())) {
        throw new TileDataException(
            "duplicate-feature-id", tileUri(table, work) + ": " + e.getMessage(), e);
      }
      if (e.getSQLState() != null && e.getSQLState().startsWith("22")) {
        throw new TileDataException("storage", tileUri(table, work) + ": " + e.getMessage(), e);
      }
      throw new IOException(tileUri(table, work) + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      rollbackQuietly();
      throw e;
    }
  }

  private void insert(RenderedTile tile) throws SQLException {
    TileWork work = tile.work();
    try (PreparedStatement st =
        connection.prepareStatement(
            "INSERT INTO "
                + table.qualifiedName()
                + " (z, x, y, feature_id, work_key, properties, geom)"
                + " VALUES (?, ?, ?, ?, ?, ?::jsonb, ST_GeomFromWKB(?, "
                + srid
                + "))")) {
      int pending = 0;
      for (RenderedFeature f : tile.features()) {
        st.setInt(1, work.tile().z());
        st.setLong(2, work.tile().x());
        st.setLong(3, work.tile().y());
        st.setString(4, f.id());
        st.setString(5, tile.key().value());
        st.setString(6, f.properties());
        st.setBytes(7, f.wkb());
        st.addBatch();
        if (++pending == 500) {
          st.executeBatch();
          pending = 0;
        }
      }
      if (pending > 0) {
        st.executeBatch();
      }
    }
  }

  private void rollbackQuietly() {
    try {
      connection.rollback();
    } catch (SQLException ignored) {
      // The connection is broken; the server rolls the transaction back when it notices.
    }
  }

  @Override
  public void close() throws IOException {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IOException("closing the PostGIS connection failed", e);
    }
  }
}
