package io.tilebeam.pipeline.cli;

/** Bad command-line arguments: exit status 2, with the message and the usage. */
public final class UsageException extends RuntimeException {

  /** Creates the exception with a message naming the argument and its value. */
  public UsageException(String message) {
    super(message);
  }
}
