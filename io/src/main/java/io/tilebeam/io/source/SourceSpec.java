package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import java.io.Serializable;

/**
 * What ReadFeatures needs of one layer: its source as its format resolved it (how it is read: for
 * groups of claimed tiles through an index, or in one pass) and how its features are cut into tile
 * pieces ({@link CutSpec}: source CRS, matrix set, zooms, buffer, simplification).
 *
 * @param source the resolved source
 * @param cut how features are cut into pieces
 */
public record SourceSpec(FeatureSource source, CutSpec cut) implements Serializable {

  /** The source's CRS, east/north. */
  public CrsRef crs() {
    return cut.sourceCrs();
  }
}
