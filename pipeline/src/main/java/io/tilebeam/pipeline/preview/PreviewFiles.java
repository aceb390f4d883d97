package io.tilebeam.pipeline.preview;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a map preview beside an output directory's tiles: {@code preview.html} (MapLibre GL JS
 * drawing the layers, archives read through the PMTiles protocol with range requests), {@code
 * preview.json} (the layers it draws) and the libraries it loads in {@code _preview/}, so that the
 * directory can be looked at through {@code tilebeam serve} or any static web server, with nothing
 * fetched from outside. The files are the same bytes for the same layers: a rerun leaves them
 * untouched, and each one is replaced atomically when it changes.
 */
public final class PreviewFiles {

  /** The page. */
  public static final String PAGE = "preview.html";

  /** The layers the page draws. */
  public static final String CONFIG = "preview.json";

  /** The directory of the page's libraries. */
  public static final String ASSETS = "_preview";

  /** The libraries and their licences, as resources beside this class. */
  static final List<String> LIBRARIES =
      List.of(
          "maplibre-gl.js",
          "maplibre-gl.css",
          "pmtiles.js",
          "LICENSE-maplibre-gl.txt",
          "LICENSE-pmtiles.txt",
          "VERSIONS");

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PreviewFiles() {}

  /**
   * Writes the preview of {@code layers} into {@code dir}; returns the page.
   *
   * @throws IOException when a file cannot be written
   */
  public static Path write(Path dir, List<PreviewLayer> layers) throws IOException {
    Files.createDirectories(dir.resolve(ASSETS));
    for (String name : LIBRARIES) {
      replace(dir.resolve(ASSETS).resolve(name), resource(name));
    }
    replace(dir.resolve(CONFIG), config(layers));
    Path page = dir.resolve(PAGE);
    replace(page, resource(PAGE));
    return page;
  }

  /** {@code preview.json}: the layers, in job order. */
  static byte[] config(List<PreviewLayer> layers) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("layers");
    for (PreviewLayer l : layers) {
      ObjectNode o = array.addObject();
      o.put("name", l.name());
      o.put("kind", l.kind());
      if (l.archive() != null) {
        o.put("archive", l.archive());
      }
      o.put("tiles", l.tilePath());
      o.put("minzoom", l.minzoom());
      o.put("maxzoom", l.maxzoom());
      ArrayNode b = o.putArray("bounds");
      l.bounds().forEach(b::add);
    }
    try {
      return (JSON.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A resource of the preview (the page, a library). */
  static byte[] resource(String name) throws IOException {
    try (InputStream in = PreviewFiles.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("the preview's " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    }
  }

  /**
   * Writes {@code bytes} at {@code file} through a temporary file, unless it holds them already.
   */
  private static void replace(Path file, byte[] bytes) throws IOException {
    if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) {
      return;
    }
    Path temp = Files.createTempFile(file.getParent(), ".preview-", ".tmp");
    try {
      Files.write(temp, bytes);
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
