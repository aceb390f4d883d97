package io.tilebeam.io.retry;

import java.io.Serializable;
import java.time.Duration;

/**
 * How often and how patiently a transient storage error is retried: up to {@code maxAttempts}
 * attempts in all, waiting a random time in {@code [0, min(cap, base * 2^(n-1))]} before attempt
 * {@code n + 1} ("full jitter": concurrent writers that failed together do not retry together).
 *
 * @param maxAttempts attempts in all, the first included; at least 1
 * @param base the upper bound of the first wait
 * @param cap the largest upper bound of any wait
 */
public record RetryPolicy(int maxAttempts, Duration base, Duration cap) implements Serializable {

  /** Eight attempts, waits bounded by 200 ms doubling up to 10 s: about 25 s at most in all. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofMillis(200), Duration.ofSeconds(10));

  /** Checks every field. */
  public RetryPolicy {
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new IllegalArgumentException("maxAttempts must be in [1, 100], was " + maxAttempts);
    }
    if (base == null || base.isNegative() || cap == null || cap.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "need 0 <= base <= cap, were base " + base + " and cap " + cap);
    }
  }

  /** The upper bound of the wait after failed attempt {@code attempt} (1-based). */
  public Duration bound(int attempt) {
    int doublings = Math.min(attempt - 1, 30);
    long nanos = base.toNanos() << doublings;
    return nanos < 0 || nanos > cap.toNanos() ? cap : Duration.ofNanos(nanos);
  }
}
