package io.tilebeam.pipeline.job;

/**
 * The version of everything that turns inputs into bytes. Bump it with any change that alters the
 * bytes written for the same inputs (the golden key tests fail until it is bumped); every key then
 * changes and the next run rebuilds.
 */
public final class Algorithm {

  /** The current algorithm version. */
  public static final int VERSION = 1;

  private Algorithm() {}
}
