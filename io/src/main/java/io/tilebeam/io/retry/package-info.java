/**
 * Retries of calls to outside systems: exponential backoff with full jitter under one policy,
 * clock, sleeper and random source injected.
 */
package io.tilebeam.io.retry;
