package io.tilebeam.pipeline.preview;

import java.util.List;

/**
 * One layer a map preview shows: vector tiles, raster tiles or elevations (Terrarium or Terrain-RGB
 * PNGs), published as a directory of tiles or as one PMTiles archive, in Web Mercator.
 *
 * @param name the layer's name: its directory below the output, and the MVT layer inside its tiles
 * @param kind {@code vector}, {@code raster}, {@code terrarium} or {@code terrain-rgb}
 * @param archive the archive's file name below the output, or null for a directory of tiles
 * @param extension the tiles' file extension ({@code mvt}, {@code png})
 * @param minzoom the first zoom with tiles
 * @param maxzoom the last zoom with tiles
 * @param bounds west, south, east, north in degrees: what the layer's extents cover
 */
public record PreviewLayer(
    String name,
    String kind,
    String archive,
    String extension,
    int minzoom,
    int maxzoom,
    List<Double> bounds) {

  /** The kinds a preview draws. */
  public static final List<String> KINDS = List.of("vector", "raster", "terrarium", "terrain-rgb");

  /** Checks the kind and the zooms. */
  public PreviewLayer {
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException("no preview draws a layer of kind " + kind);
    }
    if (minzoom < 0 || maxzoom < minzoom) {
      throw new IllegalArgumentException("zooms [" + minzoom + ", " + maxzoom + "]");
    }
    bounds = List.copyOf(bounds);
  }

  /**
   * The URL path, below the output, of tile z/x/y (a directory's file, or served from the archive).
   */
  public String tilePath() {
    return name + "/{z}/{x}/{y}." + extension;
  }
}
