package io.tilebeam.io.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retries with exponential backoff and full jitter, on an injected clock and sleeper: the waits,
 * the attempts, the budget, and what is not retried.
 */
class RetrierTest {

  /** A clock that only moves when the retrier sleeps. */
  private static final class FakeTime {
    long nanos;
    final List<Duration> waits = new ArrayList<>();

    void sleep(Duration d) {
      waits.add(d);
      nanos += d.toNanos();
    }
  }

  private static Retrier retrier(RetryPolicy policy, FakeTime time, double random) {
    return new Retrier(
        policy, e -> e instanceof IOException, time::sleep, () -> random, () -> time.nanos);
  }

  private static final class Failing {
    int calls;
    final int failures;

    Failing(int failures) {
      this.failures = failures;
    }

    String call() throws IOException {
      if (++calls <= failures) {
        throw new IOException("transient " + calls);
      }
      return "done";
    }
  }

  @Test
  void waitsDoubleUpToTheCapWithFullJitter() throws Exception {
    FakeTime time = new FakeTime();
    RetryPolicy policy =
        new RetryPolicy(8, Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofMinutes(1));
    Failing f = new Failing(6);
    assertEquals("done", retrier(policy, time, 0.999999).call("test", f::call));
    assertEquals(7, f.calls);
    List<Long> millis = time.waits.stream().map(Duration::toMillis).toList();
    assertEquals(List.of(199L, 399L, 799L, 999L, 999L, 999L), millis);

    FakeTime half = new FakeTime();
    retrier(policy, half, 0.5).call("test", new Failing(2)::call);
    assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(200)), half.waits);
  }

  @Test
  void theLastFailureIsThrownWhenAttemptsRunOut() {
    FakeTime time = new FakeTime();
    Failing f = new Failing(100);
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                retrier(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1)), time, 1)
                    .call("test", f::call));
    assertEquals("transient 3", e.getMessage());
    assertEquals(3, f.calls);
  }

  @Test
  void noWaitStartsThatWouldEndPastTheBudget() {
    FakeTime time = new FakeTime();
    RetryPolicy policy =
        new RetryPolicy(50, Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofSeconds(1));
    Failing f = new Failing(100);
    assertThrows(IOException.class, () -> retrier(policy, time, 0.999999).call("test", f::call));
    // Waits of 200 and 400 ms fit in 1 s; the next, 800 ms, would end at 1.4 s.
    assertEquals(3, f.calls);
    assertEquals(2, time.waits.size());
  }

  @Test
  void aFailureThatDoesNotPassIsNotRetried() {
    FakeTime time = new FakeTime();
    int[] calls = {0};
    assertThrows(
        IllegalStateException.class,
        () ->
            retrier(RetryPolicy.DEFAULT, time, 0.5)
                .call(
                    "test",
                    () -> {
                      calls[0]++;
                      throw new IllegalStateException("permanent");
                    }));
    assertEquals(1, calls[0]);
    assertEquals(List.of(), time.waits);
  }

  @Test
  void aPolicyIsChecked() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, Duration.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RetryPolicy(3, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(-1)));
  }
}
