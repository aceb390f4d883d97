package io.tilebeam.transforms.reproject;

import java.io.Serializable;

/**
 * What rendering one tile took, for the run's counters.
 *
 * @param pieces feature pieces that reached the tile
 * @param cleaned pieces made valid by removing spikes (a rounding artefact)
 * @param repaired pieces whose topology was repaired: rings split, polygons rebuilt or fixed
 * @param collapsed pieces with nothing left after rounding (a sliver thinner than the precision)
 * @param vertices vertices of the features written, closing points of rings included
 */
public record RenderStats(long pieces, long cleaned, long repaired, long collapsed, long vertices)
    implements Serializable {

  /** Nothing rendered. */
  public static final RenderStats NONE = new RenderStats(0, 0, 0, 0, 0);
}
