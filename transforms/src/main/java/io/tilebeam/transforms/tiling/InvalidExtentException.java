package io.tilebeam.transforms.tiling;

/** An extent that cannot be planned: inverted, out of range, or not transformable. */
public final class InvalidExtentException extends IllegalArgumentException {

  /** Creates the exception with a message that names the offending value. */
  public InvalidExtentException(String message) {
    super(message);
  }

  /** Creates the exception with a message and the cause from the CRS library. */
  public InvalidExtentException(String message, Throwable cause) {
    super(message, cause);
  }
}
