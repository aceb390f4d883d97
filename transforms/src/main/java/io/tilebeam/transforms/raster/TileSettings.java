package io.tilebeam.transforms.raster;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.transforms.digest.CanonicalJson;

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

  /**
   * Every setting as canonical JSON, what the layer's work keys hold: bands 1-based, a missing
   * no-data value left out (input) or {@code "none"} (output), NaN as the string {@code nan}.
   */
  public String keyJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("resampling", resampling.spelling());
    o.put("tileSize", size);
    ArrayNode b = o.putArray("bands");
    for (int band : bands) {
      b.add(band + 1);
    }
    if (nodataIn != null) {
      number(o, "nodata", nodataIn);
    }
    o.put("dataType", type.spelling());
    if (nodataOut == null) {
      o.put("outputNodata", "none");
    } else {
      number(o, "outputNodata", nodataOut);
    }
    return CanonicalJson.write(o);
  }

  private static void number(ObjectNode o, String name, double value) {
    if (Double.isNaN(value)) {
      o.put(name, "nan");
    } else {
      o.put(name, value);
    }
  }

  /** Equal when every setting is: a record would compare the band arrays by identity. */
  @Override
  public boolean equals(Object o) {
    return o instanceof TileSettings t && keyJson().equals(t.keyJson());
  }

  @Override
  public int hashCode() {
    return keyJson().hashCode();
  }
}
