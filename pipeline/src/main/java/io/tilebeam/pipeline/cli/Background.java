package io.tilebeam.pipeline.cli;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Start-up work run on its own daemon thread. Not the common pool: on a two-core machine it has one
 * thread, and the start-ups this overlaps would queue behind each other.
 */
final class Background {

  private Background() {}

  static <T> CompletableFuture<T> start(String name, Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                result.complete(work.get());
              } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return result;
  }

  /** Waits for the work; its own exception, not a wrapper, is thrown. */
  static <T> T join(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw e;
    }
  }
}
