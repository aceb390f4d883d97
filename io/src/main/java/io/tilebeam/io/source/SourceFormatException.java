package io.tilebeam.io.source;

/** A source that cannot be read as its declared format; the message says where and why. */
public final class SourceFormatException extends RuntimeException {

  /** Creates the exception with a message naming the source and the position. */
  public SourceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
