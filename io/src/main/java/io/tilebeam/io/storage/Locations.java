package io.tilebeam.io.storage;

import java.net.URI;
import java.nio.file.Path;

/** Where sources and outputs live: local paths, {@code file:} URIs and PostgreSQL URLs. */
public final class Locations {

  private Locations() {}

  /**
   * The local path a location names: a plain path or a {@code file:} URI.
   *
   * @throws IllegalArgumentException when it names another scheme or is not a valid path or URI
   */
  public static Path localPath(String location) {
    if (location.startsWith("file:")) {
      return Path.of(URI.create(location));
    }
    if (location.contains("://")) {
      throw new IllegalArgumentException(
          "only local paths and file: URIs are supported by this version");
    }
    return Path.of(location);
  }

  /** Whether a location names a PostgreSQL database ({@code [jdbc:]postgres[ql]://...}). */
  public static boolean isPostgres(String location) {
    String lower = location.toLowerCase(java.util.Locale.ROOT);
    return lower.startsWith("jdbc:postgresql:")
        || lower.startsWith("postgresql:")
        || lower.startsWith("postgres:")
        || lower.startsWith("jdbc:postgres:");
  }

  /** A PostgreSQL location as the {@code jdbc:postgresql:} URL the driver takes. */
  public static String jdbcUrl(String location) {
    String jdbc = location.regionMatches(true, 0, "jdbc:", 0, 5) ? location : "jdbc:" + location;
    if (jdbc.regionMatches(true, 0, "jdbc:postgres:", 0, 14)) {
      jdbc = "jdbc:postgresql:" + jdbc.substring("jdbc:postgres:".length());
    }
    return jdbc;
  }
}
