package io.tilebeam.io.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a call to an outside system under a {@link RetryPolicy}: a failure the predicate calls
 * transient is retried after a random wait of up to the policy's bound (full jitter); a permanent
 * one, or the last transient one, is thrown as it came. The sleeper and the random source are
 * injected, so tests see every wait without waiting.
 *
 * <pre>{@code
 * Retrier retrier = Retrier.of(RetryPolicy.DEFAULT, e -> e instanceof SQLTransientException);
 * Map<WorkKey, ClaimState> states = retrier.call("claim", () -> ledger.claim(...));
 * }</pre>
 */
public final class Retrier {

  private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

  /** Waits; tests record the waits instead. */
  public interface Sleeper {
    /** Waits {@code d}. */
    void sleep(Duration d) throws InterruptedException;
  }

  /** A call that may fail with {@code E}. */
  public interface Call<T, E extends Exception> {
    /** Makes the call. */
    T run() throws E;
  }

  /** Told before each retry, for example to reconnect. */
  public interface BeforeRetry {
    /** The call failed with {@code e} and is about to be retried. */
    void failed(Exception e);
  }

  private final RetryPolicy policy;
  private final Predicate<Exception> isTransient;
  private final Sleeper sleeper;
  private final DoubleSupplier random;
  private final LongSupplier nanoClock;

  /** A retrier with an injected sleeper and random source in [0, 1), timed by the system. */
  public Retrier(
      RetryPolicy policy,
      Predicate<Exception> isTransient,
      Sleeper sleeper,
      DoubleSupplier random) {
    this(policy, isTransient, sleeper, random, System::nanoTime);
  }

  /**
   * A retrier with an injected sleeper, random source in [0, 1) and clock (nanoseconds, for the
   * budget).
   */
  public Retrier(
      RetryPolicy policy,
      Predicate<Exception> isTransient,
      Sleeper sleeper,
      DoubleSupplier random,
      LongSupplier nanoClock) {
    this.policy = policy;
    this.isTransient = isTransient;
    this.sleeper = sleeper;
    this.random = random;
    this.nanoClock = nanoClock;
  }

  /** A retrier that really sleeps, with a thread-local random source. */
  public static Retrier of(RetryPolicy policy, Predicate<Exception> isTransient) {
    return new Retrier(
        policy,
        isTransient,
        d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /** The call's result, retrying transient failures. */
  public <T, E extends Exception> T call(String what, Call<T, E> call) throws E {
    return call(what, call, e -> {});
  }

  /**
   * The call's result, retrying transient failures; {@code beforeRetry} runs before each retry.
   *
   * @throws RetryInterruptedException when interrupted while waiting (the flag is kept)
   */
  public <T, E extends Exception> T call(String what, Call<T, E> call, BeforeRetry beforeRetry)
      throws E {
    long start = nanoClock.getAsLong();
    for (int attempt = 1; ; attempt++) {
      try {
        return call.run();
      } catch (Exception e) {
        if (!isTransient.test(e)) {
          throw e;
        }
        Duration spent = Duration.ofNanos(nanoClock.getAsLong() - start);
        if (attempt >= policy.maxAttempts()) {
          giveUp(what, attempt, spent, "its last attempt", e);
          throw e;
        }
        Duration wait =
            Duration.ofNanos((long) (random.getAsDouble() * policy.bound(attempt).toNanos()));
        if (spent.plus(wait).compareTo(policy.budget()) > 0) {
          giveUp(what, attempt, spent, "the end of its " + seconds(policy.budget()) + " budget", e);
          throw e;
        }
        // One line a retry, where an operator sees it: a run that waits on a sick server says so.
        LOG.warn(
            "{} failed (attempt {} of {}), retrying in {}: {}",
            what,
            attempt,
            policy.maxAttempts(),
            seconds(wait),
            reason(e));
        beforeRetry.failed(e);
        try {
          sleeper.sleep(wait);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new RetryInterruptedException(what, ie);
        }
      }
    }
  }

  private static void giveUp(String what, int attempt, Duration spent, String limit, Exception e) {
    if (attempt > 1) {
      LOG.warn(
          "{} failed (attempt {}, {} after the first), giving up at {}: {}",
          what,
          attempt,
          seconds(spent),
          limit,
          reason(e));
    }
  }

  private static String seconds(Duration d) {
    return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  private static String reason(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** Thrown when a thread is interrupted while it waits to retry. */
  public static final class RetryInterruptedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RetryInterruptedException(String what, InterruptedException cause) {
      super("interrupted while waiting to retry " + what, cause);
    }
  }
}
