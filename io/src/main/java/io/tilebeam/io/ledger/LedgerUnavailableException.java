package io.tilebeam.io.ledger;

/** The ledger cannot be reached or used; the message names the (masked) URL. */
public final class LedgerUnavailableException extends RuntimeException {

  /** Creates the exception with a message naming the ledger, and the cause. */
  public LedgerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
