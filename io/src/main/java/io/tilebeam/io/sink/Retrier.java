package io.tilebeam.io.sink;

import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a storage call under a {@link RetryPolicy}, with an injectable sleeper and randomness. */
final class Retrier {

  private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

  /** Waits; tests record the waits instead. */
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  /** A call that may fail with a runtime exception (the storage clients' style). */
  interface Call<T> {
    T run();
  }

  private final RetryPolicy policy;
  private final Predicate<RuntimeException> isTransient;
  private final Sleeper sleeper;
  private final DoubleSupplier random;

  Retrier(
      RetryPolicy policy,
      Predicate<RuntimeException> isTransient,
      Sleeper sleeper,
      DoubleSupplier random) {
    this.policy = policy;
    this.isTransient = isTransient;
    this.sleeper = sleeper;
    this.random = random;
  }

  /**
   * The call's result. A transient failure is retried after a jittered wait; a permanent one, or
   * the last transient one, is thrown as it came.
   *
   * @throws InterruptedStorageException when interrupted while waiting (the flag is kept)
   */
  <T> T call(String what, Call<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.run();
      } catch (RuntimeException e) {
        if (attempt >= policy.maxAttempts() || !isTransient.test(e)) {
          throw e;
        }
        Duration wait =
            Duration.ofNanos((long) (random.getAsDouble() * policy.bound(attempt).toNanos()));
        LOG.debug("{} failed (attempt {}), retrying in {}: {}", what, attempt, wait, e.toString());
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedStorageException(what, ie);
        }
      }
    }
  }

  /** Thrown when a thread is interrupted while it waits to retry. */
  static final class InterruptedStorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InterruptedStorageException(String what, InterruptedException cause) {
      super("interrupted while waiting to retry " + what, cause);
    }
  }
}
