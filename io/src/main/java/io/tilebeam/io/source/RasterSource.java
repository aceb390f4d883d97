package io.tilebeam.io.source;

import io.tilebeam.io.raster.SampleType;
import io.tilebeam.io.retry.RetryPolicy;

/** A raster layer's source as resolved at planning: what the planner checks the job against. */
public interface RasterSource extends LayerSource {

  /** How many bands the source has. */
  int bands();

  /** Its sample type. */
  SampleType type();

  /** The no-data value it declares, or null. */
  Double nodata();

  /** Never: a raster source is read by windows, not through a feature index. */
  @Override
  default boolean indexed() {
    return false;
  }

  /** Never: a raster source is read tile by tile by RenderRasters, not as features. */
  @Override
  default FeatureReader open(RetryPolicy retry) {
    throw new UnsupportedOperationException(
        "a raster source is read tile by tile by RenderRasters, not as features");
  }
}
