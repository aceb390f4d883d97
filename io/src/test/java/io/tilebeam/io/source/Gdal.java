package io.tilebeam.io.source;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * GDAL's {@code ogr2ogr}, the reference tool, for tests that read what it writes: the sample data
 * converted to FlatGeobuf, or loaded into PostGIS, the way users make their sources. {@code
 * scripts/setup.sh} installs it ({@code gdal-bin}).
 */
public final class Gdal {

  private Gdal() {}

  /**
   * Runs {@code ogr2ogr} with these arguments.
   *
   * @throws IOException when it is not installed or fails, with its output
   */
  public static void ogr2ogr(String... args) throws IOException {
    run("ogr2ogr", args);
  }

  /**
   * Runs GDAL's {@code tool} ({@code gdal_translate}, {@code gdalwarp}, {@code gdalinfo}, ...) with
   * these arguments; returns what it printed.
   *
   * @throws IOException when it is not installed or fails, with its output
   */
  public static String run(String tool, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(tool));
    command.addAll(List.of(args));
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new IOException(tool + " is not installed; scripts/setup.sh installs gdal-bin", e);
    }
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IOException(tool + " " + String.join(" ", args) + " failed: " + out);
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** GDAL's connection string ({@code PG:host=... port=...}) for a {@code jdbc:postgresql:} URL. */
  public static String pgConnection(String jdbcUrl) {
    URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
    StringBuilder s =
        new StringBuilder("PG:host=")
            .append(uri.getHost())
            .append(" port=")
            .append(uri.getPort())
            .append(" dbname=")
            .append(uri.getPath().substring(1));
    if (uri.getQuery() != null) {
      for (String kv : uri.getQuery().split("&")) {
        s.append(' ').append(kv);
      }
    }
    return s.toString();
  }
}
