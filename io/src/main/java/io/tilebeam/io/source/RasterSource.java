package io.tilebeam.io.source;

import io.tilebeam.codec.pixels.SampleType;

/**
 * A source of pixels (one GeoTIFF or a mosaic of them) as resolved at planning: what the planner
 * checks a raster layer's parameters against. Its tiles are read window by window by RenderRasters,
 * never as features.
 */
public non-sealed interface RasterSource extends LayerSource {

  /** How many bands the source has. */
  int bands();

  /** Its sample type. */
  SampleType type();

  /** The no-data value it declares, or null. */
  Double nodata();
}
