package io.tilebeam.io.raster;

/**
 * What a raster tile's pixels are made with, besides its place: all of it is in the tile's work
 * key.
 *
 * @param size pixels a side
 * @param bands the source bands, 0-based, in the tile's order
 * @param resampling how pixels are computed from the source's
 * @param nodataIn the source value that means no data, or null for none
 * @param type the tile's sample type
 * @param nodataOut the tile's value for no data, or null for none: pixels without data are then
 *     zeros that the tile's coverage marks (PNG transparency, a GeoTIFF mask)
 */
public record TileSettings(
    int size,
    int[] bands,
    Resampling resampling,
    Double nodataIn,
    SampleType type,
    Double nodataOut)
    implements java.io.Serializable {

  /** Copies the bands. */
  public TileSettings {
    bands = bands.clone();
  }

  /** The bands (a copy). */
  @Override
  public int[] bands() {
    return bands.clone();
  }
}
