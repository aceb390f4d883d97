package io.tilebeam.pipeline.architecture.cyclefixture.left;

import io.tilebeam.pipeline.architecture.cyclefixture.right.Right;

/** One half of a deliberate package cycle: proves that {@code PackageCyclesTest} can fail. */
public final class Left {
  private Left() {}

  /** Reaches across to the other package. */
  public static int across() {
    return Right.back() + 1;
  }
}
