package io.tilebeam.io.ledger;

/** What the ledger says of a work key, as a claim or a plan sees it. */
public enum ClaimState {
  /** Claimed by this run: the tile is to be built. */
  CLAIMED("claimed"),
  /** Not in the ledger: a run would claim it. */
  PENDING("pending"),
  /** Completed earlier: skipped. */
  COMPLETED("completed"),
  /** Failed permanently earlier: skipped until its key changes. */
  FAILED("failed"),
  /** Claimed by another run that is still within the stale window: skipped and reported. */
  IN_FLIGHT("in-flight"),
  /** Claimed by a run whose claim is older than the stale window: a run would reclaim it. */
  STALE("stale");

  private final String label;

  ClaimState(String label) {
    this.label = label;
  }

  /** The state as the command line and the tile listing write it. */
  public String label() {
    return label;
  }
}
