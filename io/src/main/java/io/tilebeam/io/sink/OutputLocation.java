package io.tilebeam.io.sink;

import io.tilebeam.io.storage.Locations;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a layer's tiles go: a local or NFS directory, a Google Cloud Storage or S3 prefix, or a
 * PostGIS table. Parsing checks every part, so that a bad location is refused before anything is
 * written.
 */
public sealed interface OutputLocation extends Serializable {

  /**
   * A directory: tiles are files below it.
   *
   * @param directory the directory's absolute path (a string: {@link Path} is not serializable)
   */
  record Local(String directory) implements OutputLocation {
    /** The directory. */
    public Path root() {
      return Path.of(directory);
    }

    @Override
    public String describe() {
      return root().toUri().toString();
    }
  }

  /**
   * A Google Cloud Storage prefix: tiles are objects {@code <prefix>/<layer>/<z>/<x>/<y>.<ext>}.
   *
   * @param bucket the bucket name
   * @param prefix the object name prefix, without leading or trailing slash; may be empty
   */
  record Gcs(String bucket, String prefix) implements OutputLocation {
    /** The object name of {@code relative} below the prefix. */
    public String objectName(String relative) {
      return prefix.isEmpty() ? relative : prefix + "/" + relative;
    }

    @Override
    public String describe() {
      return "gs://" + bucket + "/" + prefix;
    }
  }

  /**
   * An S3 (or S3-compatible) prefix: tiles are objects {@code <prefix>/<layer>/<z>/<x>/<y>.<ext>}.
   *
   * @param bucket the bucket name
   * @param prefix the object key prefix, without leading or trailing slash; may be empty
   */
  record S3(String bucket, String prefix) implements OutputLocation {
    /** The object key of {@code relative} below the prefix. */
    public String objectName(String relative) {
      return prefix.isEmpty() ? relative : prefix + "/" + relative;
    }

    @Override
    public String describe() {
      return "s3://" + bucket + "/" + prefix;
    }
  }

  /**
   * A PostGIS table.
   *
   * @param jdbcUrl the database, as a {@code jdbc:postgresql:} URL (credentials in its query)
   * @param schema the table's schema, a plain identifier
   * @param table the table, a plain identifier
   */
  record PostGis(String jdbcUrl, String schema, String table) implements OutputLocation {
    /** The table's name quoted for SQL: {@code "schema"."table"}. */
    public String qualifiedName() {
      return '"' + schema + "\".\"" + table + '"';
    }

    @Override
    public String describe() {
      return schema + "." + table;
    }
  }

  /** A short human-readable form, for logs and messages. */
  String describe();

  /** GCS's bucket naming rules, without the dotted-name (domain) form's extra checks. */
  Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9_.-]{1,61}[a-z0-9]");

  /** S3's bucket naming rules: 3-63 of lower-case letters, digits, '.' and '-'. */
  Pattern S3_BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  /** A path segment of an object prefix. */
  Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.=-]+");

  /** A table or schema: a plain lower-case SQL identifier, never needing quotes. */
  Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /**
   * Parses an output URI: a path or {@code file:} URI, {@code gs://bucket/prefix}, {@code
   * s3://bucket/prefix}, or, with format {@code postgis}, a {@code jdbc:postgresql:} or {@code
   * postgresql:} URL with {@code table} naming the table ({@code name} or {@code schema.name}).
   *
   * @throws IllegalArgumentException naming what is wrong: an unknown scheme, a bad bucket, a
   *     prefix with {@code ..}, a table that is not a plain identifier, or a format that does not
   *     fit the location
   */
  static OutputLocation parse(String uri, String format, String table) {
    String lower = uri.toLowerCase(Locale.ROOT);
    boolean postgres = Locations.isPostgres(uri);
    if (postgres != "postgis".equals(format)) {
      throw new IllegalArgumentException(
          postgres
              ? "a PostgreSQL URL needs output format postgis, not " + format
              : "output format postgis needs a jdbc:postgresql: URL");
    }
    if (postgres) {
      return postGis(uri, table);
    }
    if (table != null) {
      throw new IllegalArgumentException("a table is only used with output format postgis");
    }
    if (lower.startsWith("gs://")) {
      return gcs(uri);
    }
    if (lower.startsWith("s3://")) {
      String[] parts = bucketAndPrefix(uri.substring("s3://".length()), S3_BUCKET);
      return new S3(parts[0], parts[1]);
    }
    if (uri.contains("://") && !lower.startsWith("file:")) {
      throw new IllegalArgumentException(
          "unknown scheme '"
              + uri.substring(0, uri.indexOf("://"))
              + "' (an output is a directory, a file: URI, gs://bucket/prefix, s3://bucket/prefix,"
              + " or a"
              + " jdbc:postgresql: URL with format postgis)");
    }
    // Normalised before it is checked: "out/new/../x" would pass a check of "out" and then fail
    // every publish, as the kernel cannot step back out of a directory that does not exist yet.
    return new Local(Locations.localPath(uri).toAbsolutePath().normalize().toString());
  }

  private static Gcs gcs(String uri) {
    String[] parts = bucketAndPrefix(uri.substring("gs://".length()), BUCKET);
    return new Gcs(parts[0], parts[1]);
  }

  /** A bucket checked against {@code rule} and a prefix of checked segments, from {@code rest}. */
  private static String[] bucketAndPrefix(String rest, Pattern rule) {
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (!rule.matcher(bucket).matches() || bucket.contains("..")) {
      throw new IllegalArgumentException(
          "'"
              + bucket
              + "' is not a valid bucket name (3-63 of a-z, 0-9, '-', "
              + (rule == BUCKET ? "'_', '.')" : "'.')"));
    }
    String prefix = slash < 0 ? "" : rest.substring(slash + 1);
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    if (!prefix.isEmpty()) {
      for (String segment : prefix.split("/", -1)) {
        if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
          throw new IllegalArgumentException(
              "object prefix segment '" + segment + "' is not allowed (A-Z, a-z, 0-9, '_.=-')");
        }
      }
    }
    return new String[] {bucket, prefix};
  }

  private static PostGis postGis(String uri, String table) {
    String jdbc = Locations.jdbcUrl(uri);
    if (table == null) {
      throw new IllegalArgumentException("output format postgis needs output.table");
    }
    int dot = table.indexOf('.');
    String schema = dot < 0 ? "public" : table.substring(0, dot);
    String name = dot < 0 ? table : table.substring(dot + 1);
    for (String part : new String[] {schema, name}) {
      if (!IDENTIFIER.matcher(part).matches()) {
        throw new BadTable(
            "table '"
                + table
                + "' is not a plain identifier ([a-z_][a-z0-9_]{0,62}, optionally"
                + " schema.table)");
      }
    }
    return new PostGis(jdbc, schema, name);
  }

  /** The output's {@code table} is at fault, not its {@code uri}: a name that is no identifier. */
  public static final class BadTable extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    BadTable(String message) {
      super(message);
    }
  }
}
