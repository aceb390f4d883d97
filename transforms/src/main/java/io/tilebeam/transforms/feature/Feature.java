package io.tilebeam.transforms.feature;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One source feature: its id (from the source, or a digest of its content), its geometry as WKB in
 * the source CRS (east/north), and its properties as a canonical JSON object.
 */
public record Feature(String id, byte[] wkb, String properties) implements Serializable {

  /** Checks that every part is present. */
  public Feature {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a feature needs an id");
    }
    if (wkb == null || properties == null) {
      throw new IllegalArgumentException("feature " + id + " has no geometry or properties");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Feature f
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
    return "Feature[" + id + ", " + wkb.length + " WKB bytes]";
  }
}
