package io.tilebeam.pipeline.architecture.cyclefixture.right;

import io.tilebeam.pipeline.architecture.cyclefixture.left.Left;

/** The other half of the deliberate cycle of {@code PackageCyclesTest}. */
public final class Right {
  private Right() {}

  /** Reaches back. */
  public static int back() {
    return 1;
  }

  /** Closes the cycle. */
  public static int close() {
    return Left.across();
  }
}
