package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.digest.Sha256;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A PostGIS table or query as a layer's source, resolved when the job is planned: which column is
 * the geometry, which the id, which are properties, the SRID, and the version that enters the work
 * key. The features of a tile are read by {@link PostGisFeatures}.
 *
 * <p>A database has no content hash to take, so the job states the version: {@code version} (a
 * string the job changes when the data changes), or {@code versionQuery} (SQL run at planning whose
 * single value is the version: {@code max(updated_at)}, or a digest over the rows). The identity in
 * the key is a digest of the table or query text, the columns used and that version.
 *
 * <p>Ids follow GDAL's reading of a table: the {@code idColumn} when the job names one; else a
 * column named {@code id}; else a one-column integer primary key (GDAL's FID); else the digest
 * every format uses. A one-column integer primary key that is not the id is not a property either,
 * as GDAL does not make the FID a field.
 *
 * @param jdbcUrl the database
 * @param relation the table (quoted) or the query (parenthesised, aliased) to select from
 * @param describe the table name or query text, for messages
 * @param geometryColumn the geometry column
 * @param idColumn the id column, or null when ids are digests
 * @param properties the property columns, in table order
 * @param srid the geometries' SRID, 0 when unknown
 * @param declaredCrs the CRS of the SRID ({@code EPSG:n} or WKT), or null
 * @param identity the source identity for the work key
 */
public record PostGisSource(
    String jdbcUrl,
    String relation,
    String describe,
    String geometryColumn,
    String idColumn,
    List<PostGisColumn> properties,
    int srid,
    String declaredCrs,
    String identity)
    implements Serializable {

  private static final long serialVersionUID = 1L;

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]{0,62}");

  /** Copies the column list. */
  public PostGisSource {
    properties = List.copyOf(properties);
  }

  /** What the job says about a PostGIS source; exactly one of table and query, of the versions. */
  public record Settings(
      String uri,
      String table,
      String query,
      String geometryColumn,
      String idColumn,
      String version,
      String versionQuery) {}

  /**
   * Checks the settings that go together, before the database is asked: exactly one of {@code
   * table} and {@code query}, exactly one of {@code version} and {@code versionQuery}.
   *
   * @throws SourceFieldException naming the setting that cannot be used
   */
  static void checkSettings(String table, String query, String version, String versionQuery) {
    if ((table == null) == (query == null)) {
      throw new SourceFieldException(
          "table", table, "a postgis source needs exactly one of table and query", null);
    }
    if ((version == null) == (versionQuery == null)) {
      throw new SourceFieldException(
          "version",
          version,
          "a postgis source needs exactly one of version and versionQuery (the version of the"
              + " data, which enters the work keys: tilebeam cannot hash a table)",
          null);
    }
    if (version != null && version.isBlank()) {
      throw new SourceFieldException("version", version, "must not be blank", null);
    }
  }

  /**
   * Resolves a source against its database.
   *
   * @throws SourceFieldException naming the setting that cannot be used
   */
  public static PostGisSource resolve(Settings s) {
    checkSettings(s.table(), s.query(), s.version(), s.versionQuery());
    String relation = s.table() != null ? tableRelation(s.table()) : queryRelation(s.query());
    String jdbcUrl = Locations.jdbcUrl(s.uri());
    try (Connection c = connect(jdbcUrl)) {
      List<PostGisColumn> columns = columns(c, relation, s);
      String geometry = geometryColumn(columns, s.geometryColumn());
      String primaryKey = s.table() != null ? integerPrimaryKey(c, s.table(), columns) : null;
      String id = idColumn(columns, s.idColumn(), primaryKey);
      List<PostGisColumn> properties = new ArrayList<>();
      for (PostGisColumn col : columns) {
        if (!col.name().equals(geometry)
            && !col.name().equals(id)
            && !col.name().equals(primaryKey)) {
          if (!PostGisColumn.readable(col.type())) {
            throw new SourceFieldException(
                s.table() != null ? "table" : "query",
                s.table() != null ? s.table() : s.query(),
                "column '"
                    + col.name()
                    + "' has type "
                    + col.type()
                    + ", which cannot be a property (readable: numbers, boolean, text types, uuid,"
                    + " json, jsonb, dates and times, and arrays of these)",
                null);
          }
          properties.add(col);
        }
      }
      int srid = srid(c, relation, s.table(), geometry);
      String version = s.version() != null ? s.version() : version(c, s.versionQuery());
      ObjectNode key = JsonNodeFactory.instance.objectNode();
      key.put("relation", s.table() != null ? s.table() : s.query());
      key.put("geometryColumn", geometry);
      key.put("idColumn", id);
      key.put("version", version);
      String identity =
          "postgis:"
              + HexFormat.of()
                  .formatHex(
                      Sha256.create()
                          .digest(CanonicalJson.write(key).getBytes(StandardCharsets.UTF_8)));
      return new PostGisSource(
          jdbcUrl,
          relation,
          s.table() != null ? s.table() : s.query(),
          geometry,
          id,
          properties,
          srid,
          srid > 0 ? crsOf(c, srid) : null,
          identity);
    } catch (SQLException e) {
      if (PgConnections.connectionFailed(e)) {
        // Unreachable is not a fault of the job: the server may be down or the network sick.
        throw new IllegalStateException("cannot reach the source database " + e.getMessage(), e);
      }
      throw new SourceFieldException(
          "uri", PgConnections.mask(s.uri()), "cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * A read-only connection with the session settings that make values print the same everywhere.
   *
   * @throws SQLException when the database cannot be reached
   */
  static Connection connect(String jdbcUrl) throws SQLException {
    // Timestamps with a time zone print in UTC, whatever the server's or worker's zone.
    Connection c =
        PgConnections.openData(
            jdbcUrl,
            "SET TimeZone = 'UTC'",
            "SET DateStyle = 'ISO, YMD'",
            "SET IntervalStyle = 'iso_8601'");
    c.setReadOnly(true);
    return c;
  }

  private static String tableRelation(String table) {
    String[] parts = table.split("\\.", -1);
    if (parts.length > 2
        || !NAME.matcher(parts[0]).matches()
        || !NAME.matcher(parts[parts.length - 1]).matches()) {
      throw new SourceFieldException(
          "table", table, "is not a table name (name or schema.name, letters, digits and _)", null);
    }
    StringBuilder out = new StringBuilder();
    for (String p : parts) {
      if (out.length() > 0) {
        out.append('.');
      }
      out.append('"').append(p).append('"');
    }
    return out.toString();
  }

  private static String queryRelation(String query) {
    String q = query.strip();
    while (q.endsWith(";")) {
      q = q.substring(0, q.length() - 1).strip();
    }
    if (q.isEmpty()) {
      throw new SourceFieldException("query", query, "is empty", null);
    }
    return "(" + q + ") AS tilebeam_source";
  }

  private static List<PostGisColumn> columns(Connection c, String relation, Settings s) {
    List<PostGisColumn> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet r = st.executeQuery("SELECT * FROM " + relation + " LIMIT 0")) {
      ResultSetMetaData m = r.getMetaData();
      for (int i = 1; i <= m.getColumnCount(); i++) {
        out.add(new PostGisColumn(m.getColumnName(i), typeName(m.getColumnTypeName(i))));
      }
    } catch (SQLException e) {
      // The database answered: it is the table or query that cannot be read.
      boolean table = s.table() != null;
      throw new SourceFieldException(
          table ? "table" : "query",
          table ? s.table() : s.query(),
          "cannot be read: " + e.getMessage(),
          e);
    }
    return out;
  }

  /** The type's own name: the driver names an integer column with a sequence default serial. */
  private static String typeName(String driverName) {
    return switch (driverName) {
      case "serial" -> "int4";
      case "bigserial" -> "int8";
      case "smallserial" -> "int2";
      default -> driverName;
    };
  }

  private static String geometryColumn(List<PostGisColumn> columns, String named) {
    List<String> geometries =
        columns.stream().filter(c -> c.type().equals("geometry")).map(PostGisColumn::name).toList();
    if (named != null) {
      PostGisColumn col = find(columns, named);
      if (col == null || !col.type().equals("geometry")) {
        throw new SourceFieldException(
            "geometryColumn",
            named,
            col == null
                ? "no such column"
                : "has type " + col.type() + ", not geometry (geography is not read)",
            null);
      }
      return named;
    }
    if (geometries.size() != 1) {
      throw new SourceFieldException(
          "geometryColumn",
          null,
          geometries.isEmpty()
              ? "the source has no geometry column"
              : "the source has several geometry columns " + geometries + ": name one",
          null);
    }
    return geometries.get(0);
  }

  private static String idColumn(List<PostGisColumn> columns, String named, String primaryKey) {
    if (named != null) {
      PostGisColumn col = find(columns, named);
      if (col == null || !PostGisColumn.idType(col.type())) {
        throw new SourceFieldException(
            "idColumn",
            named,
            col == null ? "no such column" : "has type " + col.type() + ", not text or an integer",
            null);
      }
      return named;
    }
    PostGisColumn id = find(columns, FlatGeobufSource.DEFAULT_ID_COLUMN);
    if (id != null && PostGisColumn.idType(id.type())) {
      return id.name();
    }
    return primaryKey;
  }

  /** The table's primary key when it is one integer column, else null. */
  private static String integerPrimaryKey(Connection c, String table, List<PostGisColumn> columns)
      throws SQLException {
    String[] parts = table.split("\\.");
    String schema = parts.length == 2 ? parts[0] : null;
    String name = parts[parts.length - 1];
    DatabaseMetaData meta = c.getMetaData();
    List<String> keys = new ArrayList<>();
    try (ResultSet r = meta.getPrimaryKeys(null, schema, name)) {
      while (r.next()) {
        keys.add(r.getString("COLUMN_NAME"));
      }
    }
    if (keys.size() != 1) {
      return null;
    }
    PostGisColumn col = find(columns, keys.get(0));
    return col != null && List.of("int2", "int4", "int8").contains(col.type()) ? col.name() : null;
  }

  private static int srid(Connection c, String relation, String table, String geometry)
      throws SQLException {
    String g = '"' + geometry.replace("\"", "\"\"") + '"';
    // A typed column states its SRID; otherwise the first geometry does.
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT ST_SRID("
                + g
                + ") FROM "
                + relation
                + " WHERE "
                + g
                + " IS NOT NULL LIMIT 1")) {
      try (ResultSet r = st.executeQuery()) {
        return r.next() ? r.getInt(1) : 0;
      }
    }
  }

  private static String crsOf(Connection c, int srid) throws SQLException {
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = ?")) {
      st.setInt(1, srid);
      try (ResultSet r = st.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        String auth = r.getString(1);
        return auth != null && !auth.isBlank() && r.getInt(2) > 0
            ? auth + ":" + r.getInt(2)
            : r.getString(3);
      }
    }
  }

  private static String version(Connection c, String query) {
    try (Statement st = c.createStatement();
        ResultSet r = st.executeQuery(query)) {
      if (!r.next() || r.getMetaData().getColumnCount() != 1 || r.getString(1) == null) {
        throw new SourceFieldException(
            "versionQuery", query, "must return one row holding one non-null value", null);
      }
      String v = r.getString(1);
      if (r.next()) {
        throw new SourceFieldException("versionQuery", query, "returned more than one row", null);
      }
      return v;
    } catch (SQLException e) {
      throw new SourceFieldException("versionQuery", query, "cannot be run: " + e.getMessage(), e);
    }
  }

  private static PostGisColumn find(List<PostGisColumn> columns, String name) {
    return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }
}
