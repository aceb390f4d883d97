package io.tilebeam.io.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.tiling.TileId;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ledger statements under injected faults on a real PostgreSQL: a third of the statements run and
 * then lose their answer with the connection (SQLSTATE 08006), a fifth fail before they run. The
 * claims and completions still come out exactly as without faults.
 */
class RetryingLedgerTest {

  private LedgerConfig config;
  private final AtomicInteger statements = new AtomicInteger();
  private final List<Duration> waits = new ArrayList<>();

  @BeforeEach
  void schema() {
    config = TestLedgers.freshSchema("retrying");
  }

  @AfterEach
  void drop() {
    TestLedgers.drop(config);
  }

  /** A connection whose statements fail as described above, counting them all. */
  private Connection faulty(Connection real) {
    return (Connection)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("prepareStatement")) {
                return invoke(method, real, args);
              }
              int n = statements.incrementAndGet();
              if (n % 5 == 0) {
                throw new SQLException("injected: connection refused", "08001");
              }
              PreparedStatement st = (PreparedStatement) invoke(method, real, args);
              return n % 3 != 0 ? st : answerLost(st);
            });
  }

  private PreparedStatement answerLost(PreparedStatement real) {
    return (PreparedStatement)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {PreparedStatement.class},
            (proxy, method, args) -> {
              Object result = invoke(method, real, args);
              if (method.getName().startsWith("execute")) {
                throw new SQLException("injected: connection lost after the statement", "08006");
              }
              return result;
            });
  }

  private static Object invoke(java.lang.reflect.Method m, Object target, Object[] args)
      throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private RetryingLedger ledger() {
    return new RetryingLedger(
        () -> {
          try {
            Connection c = config.connect();
            return Ledger.on(faulty(c));
          } catch (SQLException e) {
            throw new LedgerUnavailableException("test ledger: " + e, e);
          }
        },
        new Retrier(
            new RetryPolicy(10, Duration.ofMillis(10), Duration.ofSeconds(1)),
            PgConnections::passes,
            waits::add,
            () -> 0.5));
  }

  private static TileWork work(int i) {
    return new TileWork(
        "ns",
        1,
        "roads",
        "WebMercatorQuad",
        TileId.of(12, i, 7),
        "sha256:aa",
        "OGC:CRS84",
        "EPSG:3857",
        "geojson",
        "{}");
  }

  @Test
  void claimsAndCompletionsComeOutWholeThroughTransientFaults() throws SQLException {
    int claimed = 0;
    int completed = 0;
    try (RetryingLedger ledger = ledger()) {
      for (int batch = 0; batch < 20; batch++) {
        List<Map.Entry<WorkKey, TileWork>> keys = new ArrayList<>();
        List<PublishResult> done = new ArrayList<>();
        for (int i = batch * 100; i < batch * 100 + 100; i++) {
          TileWork w = work(i);
          keys.add(Map.entry(WorkKey.of(w), w));
          done.add(
              new PublishResult(
                  WorkKey.of(w),
                  w,
                  "file:/t/" + i,
                  "sha256:" + i,
                  1,
                  PublishResult.Outcome.WRITTEN));
        }
        Map<WorkKey, ClaimState> states =
            ledger.call("claim", l -> l.claim("run-1", Duration.ofHours(1), false, keys));
        claimed += (int) states.values().stream().filter(s -> s == ClaimState.CLAIMED).count();
        completed += ledger.call("complete", l -> l.complete("run-1", done)).size();
      }
    }
    assertEquals(2000, claimed, "every key claimed, once per batch, by its own run");
    assertEquals(2000, completed);
    assertTrue(waits.size() >= 10, "faults were injected and retried: " + waits.size());
    try (Ledger plain = Ledger.open(config)) {
      List<WorkKey> all = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        all.add(WorkKey.of(work(i)));
      }
      assertEquals(
          Map.of(ClaimState.COMPLETED, 2000L), plain.stateCounts(all, Duration.ofHours(1)));
    }
  }

  @Test
  void aFailureThatDoesNotPassIsNotRetried() {
    try (RetryingLedger ledger = ledger()) {
      SQLException e =
          assertThrows(
              SQLException.class,
              () ->
                  ledger.call(
                      "broken",
                      l -> {
                        throw new SQLException("no such table", "42P01");
                      }));
      assertEquals("42P01", e.getSQLState());
    }
    assertEquals(List.of(), waits);
  }
}
