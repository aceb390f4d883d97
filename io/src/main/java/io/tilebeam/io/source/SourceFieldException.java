package io.tilebeam.io.source;

/**
 * A source setting that cannot be used, naming the setting (relative to the layer's {@code source},
 * for example {@code table}) and its value, so that the job's error names the field.
 */
public final class SourceFieldException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String field;
  private final String value;

  /** The setting {@code field}, holding {@code value}, cannot be used, for {@code reason}. */
  public SourceFieldException(String field, String value, String reason, Throwable cause) {
    super(reason, cause);
    this.field = field;
    this.value = value;
  }

  /** The setting, relative to the layer's {@code source}. */
  public String field() {
    return field;
  }

  /** Its value as the job gave it. */
  public String value() {
    return value;
  }
}
