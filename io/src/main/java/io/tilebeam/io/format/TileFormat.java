package io.tilebeam.io.format;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
import java.io.Serializable;
import java.util.Locale;

/** An output format for one tile: how it is encoded, and how a written file is checked. */
public interface TileFormat extends Serializable {

  /** The format name used in job specs, for example {@code geojson}. */
  String name();

  /** The file extension, without the dot. */
  String extension();

  /**
   * A tile's bytes and how many features they hold: all of the tile's, except where a format cannot
   * hold a feature at all (a polygon smaller than one unit of a vector tile's grid).
   *
   * @param bytes the encoded tile
   * @param features how many features the bytes hold
   */
  record Encoded(byte[] bytes, long features) {}

  /**
   * The tile's bytes. The same tile always gives the same bytes.
   *
   * @throws IOException when the content cannot be encoded
   */
  Encoded encode(RenderedTile tile, CrsRef crs) throws IOException;

  /**
   * Parses written bytes back and returns how many features they hold.
   *
   * @throws IOException when the bytes are not a valid tile of this format
   */
  long countFeatures(byte[] bytes) throws IOException;

  /**
   * The format whose files end in {@code extension} ({@code geojson}, {@code fgb}, {@code mvt}).
   *
   * @throws IllegalArgumentException when no format writes that extension
   */
  static TileFormat forExtension(String extension) {
    for (String name : new String[] {"geojson", "flatgeobuf", "mvt"}) {
      TileFormat f = named(name);
      if (f.extension().equals(extension)) {
        return f;
      }
    }
    throw new IllegalArgumentException("no output format writes '." + extension + "' files");
  }

  /**
   * The format with this job-spec name.
   *
   * @throws IllegalArgumentException when no format has that name
   */
  static TileFormat named(String name) {
    switch (name.toLowerCase(Locale.ROOT)) {
      case "geojson":
        return new GeoJsonFormat();
      case "flatgeobuf":
        return new FlatGeobufFormat();
      case "mvt":
        return new MvtFormat();
      default:
        throw new IllegalArgumentException(
            "unknown output format '" + name + "' (supported: geojson, flatgeobuf, mvt)");
    }
  }
}
