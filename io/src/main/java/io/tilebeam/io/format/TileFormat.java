package io.tilebeam.io.format;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.raster.RasterContent;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;

/**
 * An output format for one tile: how it is encoded, and how a written file is checked. A format
 * encodes one kind of content: features ({@link VectorFormat}) or pixels ({@link RasterFormat}).
 */
public sealed interface TileFormat extends Serializable permits VectorFormat, RasterFormat {

  /** The format name used in job specs, for example {@code geojson}. */
  String name();

  /** The file extension, without the dot. */
  String extension();

  /** The media type a stored tile is served with (its GCS content type). */
  String mediaType();

  /**
   * Whether a tile of this format that holds no feature is nothing to serve (a vector tile), which
   * an archive leaves out as tile servers answer such tiles with nothing; pixels always make a
   * tile.
   */
  boolean emptyWithoutFeatures();

  /** The tile matrix set tiles of this format must be cut in (its grid is the tile's), or null. */
  default String requiredTileMatrixSet() {
    return null;
  }

  /** The CRS tiles of this format must be written in, or null for any. */
  default String requiredCrs() {
    return null;
  }

  /**
   * A tile's bytes and how many features they hold: all of the tile's, except where a format cannot
   * hold a feature at all (a polygon smaller than one unit of a vector tile's grid).
   *
   * @param bytes the encoded tile
   * @param features how many features the bytes hold
   */
  record Encoded(byte[] bytes, long features) {}

  /**
   * The bytes of any tile's content, what the sinks call, and the one place where the kind of
   * content meets the kind of format: a {@link VectorFormat} encodes a {@link RenderedTile}'s
   * features, a {@link RasterFormat} a {@link RasterContent}'s pixels. The planner pairs a layer's
   * content with a format of its kind, so a mismatch here is a bug, reported as an error of the
   * tile. The same tile always gives the same bytes.
   *
   * @throws IOException when the content cannot be encoded, or is not of this format's kind
   */
  default Encoded encodeContent(TileContent tile, CrsRef crs) throws IOException {
    if (this instanceof VectorFormat vector && tile instanceof RenderedTile features) {
      return vector.encode(features, crs);
    }
    if (this instanceof RasterFormat raster && tile instanceof RasterContent pixels) {
      return raster.encode(pixels);
    }
    throw new IOException(name() + " does not encode " + tile.getClass().getSimpleName());
  }

  /**
   * Parses written bytes back and returns how many features they hold.
   *
   * @throws IOException when the bytes are not a valid tile of this format
   */
  long countFeatures(byte[] bytes) throws IOException;

  /** Every tile encoding, the one registration a new output format needs. */
  static List<TileFormat> all() {
    return Registry.ALL;
  }

  /**
   * Holds the list apart from the interface: a field of the interface would be initialised with it,
   * which a first use of {@link RasterFormat} (an implementation, whose constants the list holds)
   * triggers while that class is still being initialised, leaving its constants null.
   */
  final class Registry {
    private static final List<TileFormat> ALL =
        List.of(
            new GeoJsonFormat(),
            new FlatGeobufFormat(),
            new MvtFormat(),
            new GeoParquetFormat(),
            RasterFormat.GEOTIFF,
            RasterFormat.PNG,
            RasterFormat.TERRARIUM,
            RasterFormat.TERRAIN_RGB);

    private Registry() {}
  }

  /**
   * The format whose files end in {@code .extension}.
   *
   * @throws IllegalArgumentException when no format writes such files
   */
  static TileFormat forExtension(String extension) {
    return all().stream()
        .filter(f -> f.extension().equals(extension))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException("no output format writes '." + extension + "' files"));
  }

  /**
   * The format a job names ({@code output.format}), in any case.
   *
   * @throws IllegalArgumentException when no format has that name
   */
  static TileFormat named(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return all().stream()
        .filter(f -> f.name().equals(lower))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown output format '"
                        + name
                        + "' (supported: "
                        + String.join(", ", all().stream().map(TileFormat::name).toList())
                        + ")"));
  }
}
