package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.ledger.ChaosProxy;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.PostGisCluster;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostGIS sources on the real Debian cluster: what planning finds (geometry, id and property
 * columns, SRID, the version identity), how column values become properties, what is refused with
 * the setting named, and a per-tile query retried through dropped connections.
 */
class PostGisSourceTest {

  private static String schema;

  @BeforeAll
  static void tables() throws Exception {
    schema = PostGisCluster.newSchema("sources");
    try (Connection c = DriverManager.getConnection(PostGisCluster.url());
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + schema
              + ".typed (gid serial PRIMARY KEY, name text, n int8, r real, d double precision,"
              + " x numeric, ok boolean, at timestamptz, day date, tags text[], doc jsonb,"
              + " nothing text, geom geometry(Geometry, 3857))");
      s.execute(
          "INSERT INTO "
              + schema
              + ".typed (name, n, r, d, x, ok, at, day, tags, doc, geom) VALUES ('a', 9007199254740993,"
              + " 0.1, 0.1, 12.50, true, '2026-11-30 12:00:00+01', '2026-11-30', '{x,y}',"
              + " '{\"b\": [1, 2.0], \"a\": null}', ST_GeomFromText('POINT(100 200)', 3857)),"
              + " ('b', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
              + " ST_GeomFromText('LINESTRING(1000 1000, 2000 2000)', 3857))");
      s.execute(
          "CREATE TABLE " + schema + ".blobs (id text, data bytea, geom geometry(Point, 4326))");
      s.execute(
          "CREATE TABLE "
              + schema
              + ".two (id int, a geometry(Point, 4326), b geometry(Point, 4326))");
      s.execute("CREATE TABLE " + schema + ".geog (id int, g geography(Point, 4326))");
    }
  }

  private static PostGisSource.Settings table(String table) {
    return new PostGisSource.Settings(
        PostGisCluster.url(), schema + "." + table, null, null, null, "v1", null);
  }

  private static List<Feature> read(PostGisSource source, Bounds box) throws Exception {
    List<Feature> out = new ArrayList<>();
    try (PostGisFeatures features = new PostGisFeatures(source, RetryPolicy.DEFAULT)) {
      features.forEachIn(List.of(box), out::add, bad -> assertTrue(false, bad.toString()));
    }
    return out;
  }

  @Test
  void planningFindsColumnsSridAndIdentity() {
    PostGisSource s = PostGisSource.resolve(table("typed"));
    assertEquals("geom", s.geometryColumn());
    // No id column: the one-column integer primary key is the id, and not a property.
    assertEquals("gid", s.idColumn());
    assertTrue(s.properties().stream().noneMatch(c -> c.name().equals("gid")));
    assertEquals(3857, s.srid());
    assertEquals("EPSG:3857", s.declaredCrs());
    assertTrue(s.identity().startsWith("postgis:"), s.identity());
    PostGisSource v2 =
        PostGisSource.resolve(
            new PostGisSource.Settings(
                PostGisCluster.url(), schema + ".typed", null, null, null, "v2", null));
    assertNotEquals(s.identity(), v2.identity());
    assertEquals(s.identity(), PostGisSource.resolve(table("typed")).identity());
  }

  @Test
  void columnValuesBecomeCanonicalProperties() throws Exception {
    List<Feature> features =
        read(PostGisSource.resolve(table("typed")), new Bounds(0, 0, 5000, 5000));
    assertEquals(2, features.size());
    Feature a = features.stream().filter(f -> f.id().equals("1")).findFirst().orElseThrow();
    assertEquals(
        "{\"at\":\"2026-11-30 11:00:00+00\",\"d\":0.1,\"day\":\"2026-11-30\","
            + "\"doc\":{\"a\":null,\"b\":[1,2]},\"n\":9007199254740993,\"name\":\"a\","
            + "\"ok\":true,\"r\":0.1,\"tags\":[\"x\",\"y\"],\"x\":12.5}",
        a.properties());
    // Nulls are dropped, as a FlatGeobuf or GeoJSON without them would read.
    Feature b = features.stream().filter(f -> f.id().equals("2")).findFirst().orElseThrow();
    assertEquals("{\"name\":\"b\"}", b.properties());
    assertEquals(
        1, read(PostGisSource.resolve(table("typed")), new Bounds(50, 150, 150, 250)).size());
  }

  @Test
  void whatCannotBeReadIsRefusedNamingTheSetting() {
    SourceFieldException bytea =
        assertThrows(SourceFieldException.class, () -> PostGisSource.resolve(table("blobs")));
    assertEquals("table", bytea.field());
    assertTrue(bytea.getMessage().contains("'data' has type bytea"), bytea.getMessage());

    SourceFieldException two =
        assertThrows(SourceFieldException.class, () -> PostGisSource.resolve(table("two")));
    assertEquals("geometryColumn", two.field());
    assertTrue(two.getMessage().contains("several geometry columns [a, b]"), two.getMessage());

    SourceFieldException geog =
        assertThrows(SourceFieldException.class, () -> PostGisSource.resolve(table("geog")));
    assertEquals("geometryColumn", geog.field());

    SourceFieldException missing =
        assertThrows(SourceFieldException.class, () -> PostGisSource.resolve(table("nowhere")));
    assertEquals("table", missing.field());

    SourceFieldException badName =
        assertThrows(
            SourceFieldException.class, () -> PostGisSource.resolve(table("x; drop table y")));
    assertEquals("table", badName.field());

    SourceFieldException versionQuery =
        assertThrows(
            SourceFieldException.class,
            () ->
                PostGisSource.resolve(
                    new PostGisSource.Settings(
                        PostGisCluster.url(),
                        schema + ".typed",
                        null,
                        null,
                        null,
                        null,
                        "SELECT name FROM " + schema + ".typed")));
    assertEquals("versionQuery", versionQuery.field());
  }

  @Test
  void aQueryIsReadWithItsColumnsAndAVersionQuery() throws Exception {
    PostGisSource s =
        PostGisSource.resolve(
            new PostGisSource.Settings(
                PostGisCluster.url(),
                null,
                "SELECT gid AS id, name, geom FROM " + schema + ".typed WHERE name = 'b';",
                null,
                null,
                null,
                "SELECT count(*) FROM " + schema + ".typed"));
    assertEquals("id", s.idColumn());
    List<Feature> features = read(s, new Bounds(-1e7, -1e7, 1e7, 1e7));
    assertEquals(1, features.size());
    assertEquals("2", features.get(0).id());
    assertEquals("{\"name\":\"b\"}", features.get(0).properties());
    assertNull(
        PostGisSource.resolve(
                new PostGisSource.Settings(
                    PostGisCluster.url(),
                    null,
                    "SELECT name, geom FROM " + schema + ".typed",
                    null,
                    null,
                    "1",
                    null))
            .idColumn());
  }

  /** Every other connection is cut after a little traffic: each tile's query is retried. */
  @Test
  void aTileQueryIsRetriedThroughDroppedConnections() throws Exception {
    URI db = URI.create(PostGisCluster.url().substring("jdbc:".length()));
    try (ChaosProxy proxy = ChaosProxy.start(db.getHost(), db.getPort(), 2, 6)) {
      String url =
          "jdbc:postgresql://127.0.0.1:" + proxy.port() + db.getPath() + "?" + db.getQuery();
      PostGisSource s =
          PostGisSource.resolve(
              new PostGisSource.Settings(url, schema + ".typed", null, null, null, "v1", null));
      proxy.arm(true);
      RetryPolicy fast = new RetryPolicy(8, Duration.ofMillis(5), Duration.ofMillis(20));
      for (int i = 0; i < 10; i++) {
        // A reader per round: each opens connections of its own, so some are cut.
        try (PostGisFeatures features = new PostGisFeatures(s, fast)) {
          List<Feature> out = new ArrayList<>();
          features.forEachIn(List.of(new Bounds(0, 0, 5000, 5000)), out::add, bad -> {});
          assertEquals(2, out.size());
        }
      }
      assertTrue(proxy.cuts() > 0, "the proxy cut no connection");
    }
  }
}
