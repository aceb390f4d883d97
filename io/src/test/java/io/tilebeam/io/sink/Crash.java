package io.tilebeam.io.sink;

/**
 * What a process that dies leaves: nothing runs after it, not even cleanup. An {@link Error}, so
 * that a sink's own {@code catch (IOException | RuntimeException)} cleanup does not run either.
 */
final class Crash extends Error {
  private static final long serialVersionUID = 1L;

  /** A step listener that crashes the publish when it reaches {@code stop}. */
  static StepListener at(Enum<?> stop) {
    return step -> {
      if (step == stop) {
        throw new Crash();
      }
    };
  }
}
