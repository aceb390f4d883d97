package io.tilebeam.pipeline.job;

/**
 * A job spec that cannot run: the message names the field (as a path such as {@code
 * layers[0].source.format}), the offending value (control characters escaped) and, for a job read
 * from a file, its line. Raised before anything is written or claimed.
 */
public final class JobSpecException extends RuntimeException {

  private final String field;
  private final String value;
  private final String problem;
  private final int line;

  /** Creates the exception for {@code field} holding {@code value}. */
  public JobSpecException(String field, Object value, String problem) {
    this(field, describe(value), problem, 0, null, true);
  }

  /** Creates the exception with the cause that made the value unusable. */
  public JobSpecException(String field, Object value, String problem, Throwable cause) {
    this(field, describe(value), problem, 0, cause, true);
  }

  /** Creates the exception for a field on line {@code line} of the job file (0: unknown). */
  public JobSpecException(String field, Object value, String problem, int line) {
    this(field, describe(value), problem, line, null, true);
  }

  /** Creates the exception for a field on a line of the job file, with its cause. */
  public JobSpecException(String field, Object value, String problem, int line, Throwable cause) {
    this(field, describe(value), problem, line, cause, true);
  }

  private JobSpecException(
      String field, String value, String problem, int line, Throwable cause, boolean described) {
    super(
        field + ": " + problem + " (value: " + value + (line > 0 ? ", line " + line : "") + ")",
        cause);
    this.field = field;
    this.value = value;
    this.problem = problem;
    this.line = line;
  }

  /** The path of the offending field. */
  public String field() {
    return field;
  }

  /** The line of the job file the field is on; 0 when unknown. */
  public int line() {
    return line;
  }

  /** This exception placed on {@code at}'s line of its field, when it has none yet. */
  JobSpecException placed(JobYaml.Lines at) {
    int l = at.of(field);
    if (line > 0 || l == 0) {
      return this;
    }
    return new JobSpecException(field, value, problem, l, getCause(), true);
  }

  /**
   * A value as messages show it: quoted, whitespace runs folded to one space, cut at 200
   * characters, and control and bidirectional-override characters escaped as {@code \\u{XXXX}}, so
   * a hostile value cannot rewrite the terminal it is printed on.
   */
  static String describe(Object value) {
    if (value == null) {
      return "missing";
    }
    String s = String.valueOf(value).replaceAll("[ \\t\\r\\n]+", " ").strip();
    if (s.length() > 200) {
      s = s.substring(0, 197) + "...";
    }
    return "'" + SafeText.escape(s) + "'";
  }
}
