package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.ledger.ClaimState;
import io.tilebeam.io.ledger.Ledger;
import io.tilebeam.io.ledger.LedgerConfig;
import io.tilebeam.io.ledger.LedgerSchema;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;

/** The PostGIS sink against a real PostgreSQL with PostGIS ({@link PostGisCluster}). */
class PostGisTileSinkTest {

  private static final GeometryFactory GF = new GeometryFactory();
  private static String schema;
  private static int tables;

  @BeforeAll
  static void schema() throws SQLException {
    schema = PostGisCluster.newSchema("sink");
  }

  private static TileWork work(int x) {
    return new TileWork(
        "ns",
        1,
        "roads",
        "WebMercatorQuad",
        TileId.of(3, x, 5),
        "sha256:aa",
        "OGC:CRS84",
        "EPSG:3857",
        "postgis",
        "{}");
  }

  private static RenderedTile tile(TileWork work, int features, String tag) {
    List<RenderedFeature> list = new ArrayList<>();
    for (int i = 0; i < features; i++) {
      byte[] wkb = new WKBWriter().write(GF.createPoint(new Coordinate(1000.5 * i, -20.25 * i)));
      list.add(new RenderedFeature("f" + i, wkb, "{\"n\":" + i + ",\"tag\":\"" + tag + "\"}"));
    }
    return RenderedTile.of(WorkKey.of(work), work, list);
  }

  private static PublishSpec spec(String table) {
    String uri = PostGisCluster.url();
    return new PublishSpec(
        OutputLocation.parse(uri, "postgis", schema + "." + table),
        null,
        CrsRef.of("EPSG:3857"),
        (io.tilebeam.io.storage.Stores) null);
  }

  private static String newTable() {
    return "t" + ++tables;
  }

  /** The tile's rows as {@code id|x y|properties}, in id order. */
  private static List<String> rows(String table, int x) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(PostGisCluster.url());
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT feature_id, ST_X(geom), ST_Y(geom), properties->>'tag', ST_SRID(geom) FROM "
                    + schema
                    + "."
                    + table
                    + " WHERE z = 3 AND x = "
                    + x
                    + " AND y = 5 ORDER BY feature_id")) {
      while (r.next()) {
        out.add(
            r.getString(1)
                + "|"
                + r.getDouble(2)
                + " "
                + r.getDouble(3)
                + "|"
                + r.getString(4)
                + "|"
                + r.getInt(5));
      }
    }
    return out;
  }

  @Test
  void publishesOneRowPerFeatureInTheTargetSridAndReplacesTheTileWhole() throws Exception {
    String table = newTable();
    try (PostGisTileSink sink = new PostGisTileSink(spec(table), "run-1", null)) {
      PublishResult r = sink.publish(tile(work(4), 3, "a"));
      assertEquals(PublishResult.Outcome.WRITTEN, r.outcome());
      assertEquals("postgis:" + schema + "." + table + "/3/4/5", r.uri());
      assertEquals(3, r.featureCount());
      assertEquals(
          List.of("f0|0.0 -0.0|a|3857", "f1|1000.5 -20.25|a|3857", "f2|2001.0 -40.5|a|3857"),
          rows(table, 4));

      sink.publish(tile(work(6), 2, "other tile"));
      PublishResult again = sink.publish(tile(work(4), 1, "b"));
      assertEquals(List.of("f0|0.0 -0.0|b|3857"), rows(table, 4), "old rows gone, new rows in");
      assertEquals(2, rows(table, 6).size(), "the other tile is untouched");
      assertTrue(!again.checksum().equals(r.checksum()));
      assertEquals(r.checksum(), sink.publish(tile(work(4), 3, "a")).checksum(), "deterministic");
    }
  }

  @Test
  void aDuplicateFeatureIdFailsThatTileAloneAndLeavesItsOldRows() throws Exception {
    String table = newTable();
    try (PostGisTileSink sink = new PostGisTileSink(spec(table), "run-1", null)) {
      sink.publish(tile(work(4), 2, "old"));
      RenderedTile twice = tile(work(4), 2, "new");
      List<RenderedFeature> dup = new ArrayList<>(twice.features());
      dup.add(dup.get(0));
      RenderedTile bad = RenderedTile.of(twice.key(), twice.work(), dup);
      TileDataException e = assertThrows(TileDataException.class, () -> sink.publish(bad));
      assertEquals("duplicate-feature-id", e.errorClass());
      assertEquals(2, rows(table, 4).size());
      assertTrue(rows(table, 4).get(0).contains("|old|"));
      sink.publish(tile(work(5), 1, "next")); // the connection is usable for the next tile
      assertEquals(1, rows(table, 5).size());
    }
  }

  @Test
  void anExistingTableWithAnotherSridIsRefused() throws Exception {
    String table = newTable();
    try (Connection c = DriverManager.getConnection(PostGisCluster.url());
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE "
              + schema
              + "."
              + table
              + " (z integer, x bigint, y bigint, feature_id text, work_key text,"
              + " properties jsonb, geom geometry(Geometry, 4326),"
              + " PRIMARY KEY (z, x, y, feature_id))");
    }
    IOException e =
        assertThrows(IOException.class, () -> new PostGisTileSink(spec(table), "run-1", null));
    assertTrue(e.getMessage().contains("SRID 4326"), e.getMessage());
  }

  /**
   * A publish stopped at each step boundary, the dead process's connection dropped (the server
   * rolls back what was not committed), then a rerun: the tile holds its old rows or its new rows,
   * never a mix, and the rerun leaves the new ones.
   */
  @ParameterizedTest
  @EnumSource(
      value = PostGisTileSink.Step.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = "LEDGER_COMPLETED") // reached with a ledger in the same database: tested below
  void aPublishStoppedAtAnyStepLeavesOldOrNewRowsAndTheRerunFinishesIt(PostGisTileSink.Step stop)
      throws Exception {
    String table = newTable();
    try (PostGisTileSink clean = new PostGisTileSink(spec(table), "run-1", null)) {
      clean.publish(tile(work(4), 3, "old"));
      PostGisTileSink dying = new PostGisTileSink(spec(table), "run-2", null, Crash.at(stop));
      assertThrows(Crash.class, () -> dying.publish(tile(work(4), 2, "new")));
      dying.close();
      List<String> after = rows(table, 4);
      String tag = stop == PostGisTileSink.Step.COMMITTED ? "new" : "old";
      assertEquals(stop == PostGisTileSink.Step.COMMITTED ? 2 : 3, after.size(), stop.name());
      after.forEach(r -> assertTrue(r.contains("|" + tag + "|"), stop + ": " + r));

      clean.publish(tile(work(4), 2, "new"));
      assertEquals(2, rows(table, 4).size());
    }
  }

  @Test
  void publishesOfOneTileAtOnceEndWithOneWholeRowSet() throws Exception {
    String table = newTable();
    int writers = 6;
    List<PostGisTileSink> sinks = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      sinks.add(new PostGisTileSink(spec(table), "run-" + i, null));
    }
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int round = 0; round < 10; round++) {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<PublishResult>> all = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          PostGisTileSink sink = sinks.get(i);
          RenderedTile version = tile(work(4), i + 1, "v" + i);
          all.add(
              pool.submit(
                  () -> {
                    start.await();
                    return sink.publish(version);
                  }));
        }
        start.countDown();
        for (Future<PublishResult> f : all) {
          f.get();
        }
        List<String> rows = rows(table, 4);
        String tag = rows.get(0).split("\\|")[2];
        int version = Integer.parseInt(tag.substring(1));
        assertEquals(version + 1, rows.size(), "round " + round + ": one whole version");
        rows.forEach(r -> assertTrue(r.contains("|" + tag + "|"), "no mix: " + rows));
      }
    } finally {
      pool.shutdownNow();
      for (PostGisTileSink s : sinks) {
        s.close();
      }
    }
  }

  /**
   * With the ledger in the same database, the tile's completion commits with its rows: a crash
   * before the commit leaves neither, and a run that lost its claim writes nothing.
   */
  @Test
  void inTheLedgersDatabaseTheCompletionCommitsWithTheRows() throws Exception {
    LedgerConfig ledgerConfig =
        LedgerConfig.of(PostGisCluster.url()).withSchema(schema + "_ledger");
    LedgerSchema.migrate(ledgerConfig);
    String table = newTable();
    TileWork w = work(4);
    WorkKey key = WorkKey.of(w);
    try (Ledger ledger = Ledger.open(ledgerConfig)) {
      ledger.claim("run-1", Duration.ofHours(1), false, List.of(Map.entry(key, w)));

      PostGisTileSink dying =
          new PostGisTileSink(
              spec(table), "run-1", ledgerConfig, Crash.at(PostGisTileSink.Step.LEDGER_COMPLETED));
      assertThrows(Crash.class, () -> dying.publish(tile(w, 2, "a")));
      dying.close();
      assertEquals(List.of(), rows(table, 4));
      assertEquals(ClaimState.IN_FLIGHT, ledger.states(List.of(key), Duration.ofHours(1)).get(key));

      try (PostGisTileSink stranger = new PostGisTileSink(spec(table), "run-9", ledgerConfig)) {
        stranger.publish(tile(w, 2, "stranger"));
      }
      assertEquals(List.of(), rows(table, 4), "a run without the claim writes nothing");

      try (PostGisTileSink owner = new PostGisTileSink(spec(table), "run-1", ledgerConfig)) {
        PublishResult r = owner.publish(tile(w, 2, "a"));
        assertEquals(2, rows(table, 4).size());
        assertEquals(
            ClaimState.COMPLETED, ledger.states(List.of(key), Duration.ofHours(1)).get(key));
        assertNotNull(r.checksum());
      }
    }
  }
}
