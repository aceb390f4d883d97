package io.tilebeam.io.source;

import io.tilebeam.io.raster.SampleType;

/** A raster layer's source as resolved at planning: what the planner checks the job against. */
public interface RasterSource extends LayerSource {

  /** How many bands the source has. */
  int bands();

  /** Its sample type. */
  SampleType type();

  /** The no-data value it declares, or null. */
  Double nodata();
}
