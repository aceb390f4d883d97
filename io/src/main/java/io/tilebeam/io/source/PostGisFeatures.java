package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;

/**
 * Reads the features of one tile from a PostGIS source: the rows whose geometry's box meets the
 * tile's boxes ({@code &&}, which the GiST index answers). The box test, not {@code ST_Intersects},
 * keeps every row the tile's rule may keep ({@code FeatureTiles.covers} then decides, exactly as
 * for a file). A statement that fails in a way that may pass (a dropped connection, a restarting
 * server) is retried on a new connection.
 */
final class PostGisFeatures implements AutoCloseable {

  private final PostGisSource source;
  private final Retrier retrier;
  private final SourceWkb wkb = new SourceWkb();
  private final SourceFeatures features = new SourceFeatures();
  private Connection connection;

  PostGisFeatures(PostGisSource source, RetryPolicy policy) {
    this.source = source;
    this.retrier = Retrier.of(policy, PgConnections::passes);
  }

  /**
   * Calls {@code action} for every usable feature in the boxes and {@code bad} for each row that
   * cannot be used. Nothing is passed on until the whole query has been read, so a retried query
   * never passes a row twice.
   *
   * @throws SQLException when the query fails for good
   */
  void forEachIn(List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws SQLException {
    List<Row> rows =
        retrier.call(
            "read " + source.describe(),
            () -> query(boxes),
            e -> {
              closeQuietly();
            });
    for (Row row : rows) {
      if (row instanceof Usable u) {
        action.accept(u.feature());
      } else {
        bad.accept(((Unusable) row).bad());
      }
    }
  }

  /** A row read: a usable feature or a bad one, held until the whole query has been read. */
  private sealed interface Row permits Usable, Unusable {}

  private record Usable(Feature feature) implements Row {}

  private record Unusable(BadFeature bad) implements Row {}

  private List<Row> query(List<Bounds> boxes) throws SQLException {
    if (connection == null) {
      connection = PostGisSource.connect(source.jdbcUrl());
    }
    List<Row> out = new ArrayList<>();
    try (PreparedStatement st = connection.prepareStatement(sql(boxes.size()))) {
      int p = 1;
      for (Bounds b : boxes) {
        st.setDouble(p++, b.minX());
        st.setDouble(p++, b.minY());
        st.setDouble(p++, b.maxX());
        st.setDouble(p++, b.maxY());
      }
      try (ResultSet r = st.executeQuery()) {
        while (r.next()) {
          out.add(row(r));
        }
      }
    }
    return out;
  }

  private Row row(ResultSet r) throws SQLException {
    String id = r.getString(1);
    try {
      byte[] bytes = r.getBytes(2);
      Geometry g = bytes == null ? wkb.read(EMPTY) : wkb.read(bytes);
      ObjectNode properties = JsonNodeFactory.instance.objectNode();
      List<PostGisColumn> columns = source.properties();
      for (int i = 0; i < columns.size(); i++) {
        properties.set(columns.get(i).name(), columns.get(i).value(r, i + 3));
      }
      return new Usable(features.feature(id, g, properties));
    } catch (ParseException | IllegalArgumentException e) {
      return new Unusable(
          new BadFeature(id != null ? id : "row of " + source.describe(), e.getMessage()));
    }
  }

  // An empty geometry collection: a row without a geometry lands in no tile, as in a file.
  private static final byte[] EMPTY = {0, 0, 0, 0, 7, 0, 0, 0, 0};

  private String sql(int boxes) {
    String g = quote(source.geometryColumn());
    StringBuilder sql = new StringBuilder("SELECT ");
    sql.append(source.idColumn() == null ? "NULL" : quote(source.idColumn()) + "::text");
    // 2D, as every source: a z or m is dropped, and ISO and extended WKB need not be told apart.
    sql.append(", ST_AsBinary(ST_Force2D(").append(g).append("))");
    for (PostGisColumn c : source.properties()) {
      sql.append(", ").append(quote(c.name()));
    }
    sql.append(" FROM ").append(source.relation()).append(" WHERE ");
    for (int i = 0; i < boxes; i++) {
      sql.append(i == 0 ? "(" : " OR ")
          .append(g)
          .append(" && ST_MakeEnvelope(?, ?, ?, ?, ")
          .append(source.srid())
          .append(')');
    }
    return sql.append(')').toString();
  }

  private static String quote(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private void closeQuietly() {
    try {
      close();
    } catch (SQLException e) {
      // The connection is being replaced because it failed; its close may fail too.
    }
  }

  @Override
  public void close() throws SQLException {
    Connection c = connection;
    connection = null;
    if (c != null) {
      c.close();
    }
  }
}
