package io.tilebeam.transforms.feature;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One feature's part in one tile, as ReadFeatures cuts it: the feature's id and properties, and its
 * geometry clipped to the buffered tile, as WKB in the tile matrix set's CRS (east/north), or as a
 * {@code GridPiece} already on the output grid where the target CRS is that CRS. Only pieces travel
 * from ReadFeatures to ReprojectTiles, so the bytes moved grow with the output.
 */
public record FeaturePiece(String id, byte[] wkb, String properties) implements Serializable {

  /** How coders read a piece's three parts ({@link FeatureTriples}). */
  public static final FeatureTriples.Parts<FeaturePiece> PARTS =
      new FeatureTriples.Parts<>(FeaturePiece::id, FeaturePiece::wkb, FeaturePiece::properties);

  /** Checks that every part is present. */
  public FeaturePiece {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a piece needs its feature's id");
    }
    if (wkb == null || properties == null) {
      throw new IllegalArgumentException("the piece of " + id + " has no geometry or properties");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeaturePiece f
        && id.equals(f.id)
        && Arrays.equals(wkb, f.wkb)
        && properties.equals(f.properties);
  }

  @Override
  public int hashCode() {
    return (id.hashCode() * 31 + Arrays.hashCode(wkb)) * 31 + properties.hashCode();
  }

  @Override
  public String toString() {
    return "FeaturePiece[" + id + ", " + wkb.length + " WKB bytes]";
  }
}
