package io.tilebeam.transforms.feature;

import java.io.Serializable;
import java.util.Arrays;
import org.locationtech.jts.geom.Geometry;

/**
 * One source feature: its id (from the source, or a digest of its content), its geometry as WKB in
 * the source CRS (east/north), and its properties as a canonical JSON object.
 *
 * <p>A feature just read may also carry the geometry its WKB was written from ({@link
 * #takeDecoded}), so that a feature cut where it is read is not parsed back from its own WKB; it is
 * not part of the feature's value (not compared, not encoded, not serialized), and a feature that
 * crosses a shuffle arrives without it.
 */
public final class Feature implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String id;
  private final byte[] wkb;
  private final String properties;
  // Handed over once (takeDecoded): a country's coastline is tens of megabytes as JTS objects.
  private transient Geometry decoded;

  /** A feature without its decoded geometry; every part must be present. */
  public Feature(String id, byte[] wkb, String properties) {
    this(id, wkb, properties, null);
  }

  /**
   * A feature with {@code decoded}, the geometry {@code wkb} was written from (null for none); the
   * caller must not change it afterwards.
   */
  public Feature(String id, byte[] wkb, String properties, Geometry decoded) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a feature needs an id");
    }
    if (wkb == null || properties == null) {
      throw new IllegalArgumentException("feature " + id + " has no geometry or properties");
    }
    this.id = id;
    this.wkb = wkb;
    this.properties = properties;
    this.decoded = decoded;
  }

  /** The feature's id. */
  public String id() {
    return id;
  }

  /** Its geometry as WKB in the source CRS. */
  public byte[] wkb() {
    return wkb;
  }

  /** Its properties, canonical JSON. */
  public String properties() {
    return properties;
  }

  /**
   * The geometry its WKB was written from, when the reader kept it and it was not taken before;
   * else null (read the WKB). Taken, it is no longer held here: the one who cuts the feature can
   * let it go as soon as it has made what it needs of it, while the feature lives on.
   */
  public Geometry takeDecoded() {
    Geometry g = decoded;
    decoded = null;
    return g;
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
