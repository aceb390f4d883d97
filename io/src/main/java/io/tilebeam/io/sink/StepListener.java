package io.tilebeam.io.sink;

/**
 * Told when a publish reaches a boundary between its steps, where a process can die; tests use it
 * to stop a publish there, as a crash would.
 */
interface StepListener {

  /** A listener that does nothing. */
  StepListener NONE = step -> {};

  /** The publish has just completed {@code step}. */
  void reached(Enum<?> step);
}
