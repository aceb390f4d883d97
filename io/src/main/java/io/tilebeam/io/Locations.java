package io.tilebeam.io;

import java.net.URI;
import java.nio.file.Path;

/** Where sources and outputs live: local paths and {@code file:} URIs, for now. */
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
}
