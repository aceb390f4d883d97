package io.tilebeam.transforms.outcome;

/**
 * A data error that costs one feature (or one tile) and nothing else: it carries a stable {@link
 * #errorClass()} that is counted and written to the dead letter.
 */
public final class TileDataException extends Exception {

  private final String errorClass;

  /** Creates the exception; {@code errorClass} is a short stable category. */
  public TileDataException(String errorClass, String message, Throwable cause) {
    super(message, cause);
    this.errorClass = errorClass;
  }

  /** The stable category of the failure, for example {@code geometry}. */
  public String errorClass() {
    return errorClass;
  }
}
