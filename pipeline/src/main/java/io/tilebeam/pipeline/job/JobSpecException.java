package io.tilebeam.pipeline.job;

/**
 * A job spec that cannot run: the message names the field (as a path such as {@code
 * layers[0].source.format}) and the offending value. Raised before anything is written or claimed.
 */
public final class JobSpecException extends RuntimeException {

  private final String field;

  /** Creates the exception for {@code field} holding {@code value}. */
  public JobSpecException(String field, Object value, String problem) {
    super(field + ": " + problem + " (value: " + describe(value) + ")");
    this.field = field;
  }

  /** Creates the exception with the cause that made the value unusable. */
  public JobSpecException(String field, Object value, String problem, Throwable cause) {
    super(field + ": " + problem + " (value: " + describe(value) + ")", cause);
    this.field = field;
  }

  /** The path of the offending field. */
  public String field() {
    return field;
  }

  private static String describe(Object value) {
    if (value == null) {
      return "missing";
    }
    String s = String.valueOf(value).replaceAll("\\s+", " ").trim();
    return "'" + (s.length() <= 200 ? s : s.substring(0, 197) + "...") + "'";
  }
}
