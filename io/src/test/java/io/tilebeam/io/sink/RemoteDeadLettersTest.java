package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.CrsRef;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Feature dead letters beside GCS and PostGIS outputs: the union of all records, never lost. */
class RemoteDeadLettersTest {

  private static SortedSet<String> lines(String... l) {
    return new TreeSet<>(List.of(l));
  }

  @Test
  void theObjectIsTheSortedUnionEvenWithWritersAtOnce() throws Exception {
    try (GcsStandIn server = GcsStandIn.start()) {
      server.createBucket("dead");
      String uri = "gs://dead/tiles";
      PublishSpec spec =
          SinkTestTiles.geoJsonSpec(
              uri, new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT));
      assertEquals(
          2,
          RemoteDeadLetters.mergeIntoObject(
              spec, "roads", DeadLetters.FEATURES_FILE, lines("b", "a")));
      assertEquals(
          2,
          RemoteDeadLetters.mergeIntoObject(spec, "roads", DeadLetters.FEATURES_FILE, lines("a")));
      // Eight writers at once, each with its own record: the precondition keeps every one.
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<Integer>> all = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String record = "w" + i;
        all.add(
            pool.submit(
                () ->
                    RemoteDeadLetters.mergeIntoObject(
                        spec, "roads", DeadLetters.FEATURES_FILE, lines(record))));
      }
      for (Future<Integer> f : all) {
        f.get();
      }
      pool.shutdown();
      byte[] data =
          server
              .objects("dead", "tiles/_failed/roads/features.jsonl")
              .values()
              .iterator()
              .next()
              .data();
      assertEquals(
          "a\nb\nw0\nw1\nw2\nw3\nw4\nw5\nw6\nw7\n", new String(data, StandardCharsets.UTF_8));
    }
  }

  @Test
  void theTableHoldsEachRecordOnce() throws Exception {
    String url = PostGisCluster.url();
    String table = PostGisCluster.newSchema("dead") + ".roads";
    PublishSpec spec =
        new PublishSpec(
            OutputLocation.parse(url, "postgis", table),
            null,
            CrsRef.of("EPSG:3857"),
            (io.tilebeam.io.storage.Stores) null);
    assertEquals(2, RemoteDeadLetters.mergeIntoTable(spec, lines("b", "a")));
    assertEquals(3, RemoteDeadLetters.mergeIntoTable(spec, lines("a", "c")));
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT string_agg(record, ',' ORDER BY record) FROM " + table + "_failed")) {
      r.next();
      assertEquals("a,b,c", r.getString(1));
    }
  }
}
