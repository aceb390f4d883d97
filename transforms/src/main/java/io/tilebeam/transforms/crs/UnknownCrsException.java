package io.tilebeam.transforms.crs;

/** A CRS spelling that Apache SIS cannot read, or a CRS that cannot be used. */
public final class UnknownCrsException extends IllegalArgumentException {

  /** Creates the exception for {@code spelling}, with the reason SIS gave. */
  public UnknownCrsException(String spelling, Throwable cause) {
    super("unknown or unusable CRS '" + abbreviate(spelling) + "': " + reason(cause), cause);
  }

  private static String reason(Throwable cause) {
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  private static String abbreviate(String s) {
    String oneLine = s.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
  }
}
