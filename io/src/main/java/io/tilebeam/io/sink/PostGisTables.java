package io.tilebeam.io.sink;

import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.tiling.TileId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/** The SQL of a PostGIS output table: creating it, locking, deleting and reading a tile's rows. */
public final class PostGisTables {

  private PostGisTables() {}

  /**
   * What a tile's rows hold, as the database returns them.
   *
   * @param rows how many rows the tile has
   * @param checksum SHA-256 over each row's feature id, WKB (little-endian) and properties text, in
   *     feature id order (byte order)
   */
  public record TileDigest(long rows, String checksum) {}

  /**
   * The schema the PostGIS extension lives in.
   *
   * @throws SQLException when the database has no PostGIS
   */
  static String postgisSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
                    + " ON n.oid = e.extnamespace WHERE e.extname = 'postgis'")) {
      if (!r.next()) {
        throw new SQLException("the database has no PostGIS extension");
      }
      return '"' + r.getString(1).replace("\"", "\"\"") + '"';
    }
  }

  /**
   * Creates the table and its spatial index when missing, and checks that an existing table's
   * geometry column has {@code srid}. Concurrent callers queue on an advisory lock.
   *
   * @throws SQLException when the table cannot be created or has another SRID
   */
  static void ensure(Connection c, OutputLocation.PostGis table, int srid) throws SQLException {
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      lock(c, "tilebeam-table:" + table.describe());
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + table.qualifiedName()
              + " (z integer NOT NULL, x bigint NOT NULL, y bigint NOT NULL,"
              + " feature_id text COLLATE \"C\" NOT NULL, work_key text NOT NULL,"
              + " properties jsonb NOT NULL, geom geometry(Geometry, "
              + srid
              + ") NOT NULL, PRIMARY KEY (z, x, y, feature_id))");
      s.execute(
          "CREATE INDEX IF NOT EXISTS \""
              + table.table()
              + "_geom\" ON "
              + table.qualifiedName()
              + " USING gist (geom)");
      try (PreparedStatement st = c.prepareStatement("SELECT Find_SRID(?, ?, 'geom')")) {
        st.setString(1, table.schema());
        st.setString(2, table.table());
        try (ResultSet r = st.executeQuery()) {
          r.next();
          if (r.getInt(1) != srid) {
            throw new SQLException(
                "table "
                    + table.describe()
                    + " has SRID "
                    + r.getInt(1)
                    + ", the job writes "
                    + srid);
          }
        }
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
  }

  /** Takes the tile's advisory lock until the end of the transaction. */
  static void lockTile(Connection c, OutputLocation.PostGis table, TileWork work)
      throws SQLException {
    lock(c, "tilebeam-tile:" + PostGisTileSink.tileUri(table, work));
  }

  private static void lock(Connection c, String name) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
      st.setString(1, name);
      st.execute();
    }
  }

  /** Deletes the tile's rows. */
  static void deleteTile(Connection c, OutputLocation.PostGis table, TileWork work)
      throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "DELETE FROM " + table.qualifiedName() + " WHERE z = ? AND x = ? AND y = ?")) {
      bindTile(st, work.tile());
      st.executeUpdate();
    }
  }

  /**
   * Reads the tile's rows back and digests them.
   *
   * @throws SQLException when the query fails
   */
  public static TileDigest digest(Connection c, OutputLocation.PostGis table, TileId tile)
      throws SQLException {
    MessageDigest d = Sha256.create();
    long rows = 0;
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT feature_id, ST_AsBinary(geom, 'NDR'), properties::text FROM "
                + table.qualifiedName()
                + " WHERE z = ? AND x = ? AND y = ? ORDER BY feature_id")) {
      bindTile(st, tile);
      try (ResultSet r = st.executeQuery()) {
        while (r.next()) {
          field(d, r.getString(1).getBytes(StandardCharsets.UTF_8));
          field(d, r.getBytes(2));
          field(d, r.getString(3).getBytes(StandardCharsets.UTF_8));
          rows++;
        }
      }
    }
    return new TileDigest(rows, "sha256:" + HexFormat.of().formatHex(d.digest()));
  }

  /** Length-prefixed, so that no two different rows digest alike. */
  private static void field(MessageDigest d, byte[] bytes) {
    d.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
    d.update(bytes);
  }

  private static void bindTile(PreparedStatement st, TileId tile) throws SQLException {
    st.setInt(1, tile.z());
    st.setLong(2, tile.x());
    st.setLong(3, tile.y());
  }
}
