package io.tilebeam.pipeline.cli;

/** The exit statuses users script against (DESIGN.md, "The contract users script against"). */
public final class ExitCode {

  /** Every tile written or skipped. */
  public static final int OK = 0;

  /** Anything else: the ledger unreachable, a runner failure, a bug. */
  public static final int ERROR = 1;

  /** A bad job or bad arguments; nothing was written. */
  public static final int BAD_INPUT = 2;

  /** The run finished with failed tiles. */
  public static final int TILES_FAILED = 3;

  private ExitCode() {}
}
