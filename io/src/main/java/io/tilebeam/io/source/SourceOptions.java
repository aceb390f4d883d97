package io.tilebeam.io.source;

/**
 * The source fields a job sets beside {@code uri}, {@code format} and {@code crs}; only some
 * formats take each ({@link SourceFormat#fields()}), and each is null when the job leaves it out.
 *
 * @param idColumn the column holding feature ids (flatgeobuf, postgis)
 * @param table the table, {@code name} or {@code schema.name} (postgis)
 * @param query the query to read instead of a table (postgis)
 * @param geometryColumn the geometry column, when the table has several (postgis)
 * @param version the version of the data, which enters the work keys (postgis)
 * @param versionQuery SQL whose one value is that version (postgis)
 * @param limits the reading limits the job sets (geojson, geojsonseq), null for the defaults
 */
public record SourceOptions(
    String idColumn,
    String table,
    String query,
    String geometryColumn,
    String version,
    String versionQuery,
    JsonLimits limits) {

  /** No options: every field left out. */
  public static final SourceOptions NONE =
      new SourceOptions(null, null, null, null, null, null, null);

  /** The reading limits: the job's, else the defaults. */
  public JsonLimits limitsOrDefault() {
    return limits != null ? limits : JsonLimits.DEFAULT;
  }

  /**
   * What of these options a file source's identity adds to its content's: the id column decides the
   * ids, and set reading limits which features are read, so both are part of what the layer's keys
   * are made from. The defaults add nothing, so the keys of jobs that set none are what they were
   * before either option existed.
   */
  String identitySuffix() {
    return (idColumn == null ? "" : "#idColumn=" + idColumn)
        + (limits == null
            ? ""
            : "#limits="
                + limits.maxStringChars()
                + ","
                + limits.maxNesting()
                + ","
                + limits.maxRecordBytes());
  }
}
