package io.tilebeam.transforms.reproject;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A feature ready to encode: its id, its geometry as WKB in the target CRS (east/north, rounded to
 * the layer's precision) and its properties as a canonical JSON object.
 */
public record RenderedFeature(String id, byte[] wkb, String properties) implements Serializable {

  @Override
  public boolean equals(Object o) {
    return o instanceof RenderedFeature f
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
    return "RenderedFeature[" + id + "]";
  }
}
