package io.tilebeam.io.format;

import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.codec.png.ElevationEncoding;
import io.tilebeam.codec.png.PngEncoder;
import io.tilebeam.codec.tiff.GeoTiffEncoder;
import io.tilebeam.transforms.raster.RasterContent;
import java.io.IOException;

/**
 * The encodings of raster tiles: GeoTIFF ({@link GeoTiffEncoder}: tiled, deflate, georeferenced,
 * nodata declared) and PNG ({@link PngEncoder}: for web maps, no data transparent). A written tile
 * is checked by parsing it back; it counts as one feature.
 */
public final class RasterFormat implements TileFormat {

  private static final long serialVersionUID = 1L;

  /** Tiled, deflate-compressed GeoTIFF. */
  public static final RasterFormat GEOTIFF =
      new RasterFormat(Kind.GEOTIFF, "geotiff", "tif", "image/tiff; application=geotiff");

  /** PNG: one band of 8 or 16 bits, or 3 or 4 bands of 8 bits. */
  public static final RasterFormat PNG = new RasterFormat(Kind.PNG, "png", "png", "image/png");

  /**
   * Mapzen Terrarium elevations as RGBA PNG ({@code h = R × 256 + G + B / 256 - 32768}) of a 1-band
   * source.
   */
  public static final RasterFormat TERRARIUM =
      new RasterFormat(Kind.TERRARIUM, "terrarium", "png", "image/png");

  /**
   * Mapbox Terrain-RGB elevations as RGBA PNG ({@code h = -10000 + (R × 65536 + G × 256 + B) ×
   * 0.1}) of a 1-band source.
   */
  public static final RasterFormat TERRAIN_RGB =
      new RasterFormat(Kind.TERRAIN_RGB, "terrain-rgb", "png", "image/png");

  private enum Kind {
    GEOTIFF,
    PNG,
    TERRARIUM,
    TERRAIN_RGB
  }

  private final Kind kind;
  private final String name;
  private final String extension;
  private final String mediaType;

  private RasterFormat(Kind kind, String name, String extension, String mediaType) {
    this.kind = kind;
    this.name = name;
    this.extension = extension;
    this.mediaType = mediaType;
  }

  /** Why pixels of {@code bands} bands of {@code type} cannot be written, or null when they can. */
  public String refuses(int bands, SampleType type) {
    return switch (kind) {
      case PNG -> PngEncoder.refuses(bands, type);
      case TERRARIUM, TERRAIN_RGB -> ElevationEncoding.refuses(bands);
      case GEOTIFF -> null;
    };
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String extension() {
    return extension;
  }

  @Override
  public String mediaType() {
    return mediaType;
  }

  /** The tile's bytes: the same pixels always give the same bytes. */
  public Encoded encode(RasterContent raster) {
    byte[] bytes =
        switch (kind) {
          case GEOTIFF -> GeoTiffEncoder.encode(raster.pixels(), raster.where());
          case PNG -> PngEncoder.encode(raster.pixels());
          case TERRARIUM -> PngEncoder.encode(ElevationEncoding.TERRARIUM.encode(raster.pixels()));
          case TERRAIN_RGB ->
              PngEncoder.encode(ElevationEncoding.TERRAIN_RGB.encode(raster.pixels()));
        };
    return new Encoded(bytes, 1);
  }

  /** False: pixels always make a tile, even where they are all no data. */
  @Override
  public boolean emptyWithoutFeatures() {
    return false;
  }

  /** One tile, once its bytes parse back whole. */
  @Override
  public long countFeatures(byte[] bytes) throws IOException {
    if (kind == Kind.GEOTIFF) {
      GeoTiffEncoder.check(bytes);
    } else {
      PngEncoder.check(bytes);
    }
    return 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RasterFormat f && f.kind == kind;
  }

  @Override
  public int hashCode() {
    return kind.hashCode();
  }
}
