package io.tilebeam.io.retry;

import java.io.Serializable;
import java.time.Duration;

/**
 * How often and how patiently a transient error is retried: up to {@code maxAttempts} attempts in
 * all, waiting a random time in {@code [0, min(cap, base * 2^(n-1))]} before attempt {@code n + 1}
 * ("full jitter": concurrent writers that failed together do not retry together), and never
 * starting a wait that would end more than {@code budget} after the first attempt began.
 *
 * @param maxAttempts attempts in all, the first included; at least 1
 * @param base the upper bound of the first wait
 * @param cap the largest upper bound of any wait
 * @param budget the longest time from the first attempt to the start of the last one
 */
public record RetryPolicy(int maxAttempts, Duration base, Duration cap, Duration budget)
    implements Serializable {

  /**
   * The budget when none is given: every wait the other bounds allow (about 25 s) fits, and a call
   * to a server that takes each attempt to its 10 s login timeout still ends within a minute.
   */
  public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(40);

  /**
   * Eight attempts, waits bounded by 200 ms doubling up to 10 s (about 25 s at most in all), within
   * 40 seconds.
   */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(200), Duration.ofSeconds(10));

  /** A policy with the default budget. */
  public RetryPolicy(int maxAttempts, Duration base, Duration cap) {
    this(maxAttempts, base, cap, DEFAULT_BUDGET);
  }

  /** Checks every field. */
  public RetryPolicy {
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new IllegalArgumentException("maxAttempts must be in [1, 100], was " + maxAttempts);
    }
    if (base == null || base.isNegative() || cap == null || cap.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "need 0 <= base <= cap, were base " + base + " and cap " + cap);
    }
    if (budget == null || budget.isNegative()) {
      throw new IllegalArgumentException("budget must not be negative, was " + budget);
    }
  }

  /** The upper bound of the wait after failed attempt {@code attempt} (1-based). */
  public Duration bound(int attempt) {
    int doublings = Math.min(attempt - 1, 30);
    long nanos = base.toNanos() << doublings;
    return nanos < 0 || nanos > cap.toNanos() ? cap : Duration.ofNanos(nanos);
  }
}
