package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.key.CanonicalJson;
import io.tilebeam.transforms.key.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;

/**
 * One GeoJSON Feature object to a {@link Feature}, the same for every GeoJSON flavour (a
 * FeatureCollection's members, GeoJSONSeq records): the id from the {@code id} member, or else a
 * digest of the feature's geometry and properties, so the same feature always has the same id.
 */
final class GeoJsonFeatures {

  // NaN and Infinity are not JSON, but common writers (Python's json module among them) emit them:
  // such a file is read, and the features holding them go to the dead letter.
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .build();

  private final GeoJsonGeometry geometries = new GeoJsonGeometry(new GeometryFactory());
  private final WKBWriter wkb = new WKBWriter(2);

  /**
   * The feature.
   *
   * @throws IllegalArgumentException when it is not a usable Feature: not a Feature, a malformed
   *     geometry or non-finite coordinate, properties that are not an object
   */
  Feature toFeature(JsonNode node) {
    if (!"Feature".equals(node.path("type").asText())) {
      throw new IllegalArgumentException("not a Feature: type " + node.path("type"));
    }
    Geometry g = geometries.parse(node.get("geometry"));
    JsonNode props = node.get("properties");
    String properties = props == null || props.isNull() ? "{}" : CanonicalJson.write(props);
    if (!properties.startsWith("{")) {
      throw new IllegalArgumentException("properties must be an object, not " + props);
    }
    String fid = ownId(node);
    return new Feature(
        fid != null ? fid : digestId(node.get("geometry"), properties), wkb.write(g), properties);
  }

  /** Unclosed polygon rings closed so far. */
  long ringsClosed() {
    return geometries.ringsClosed();
  }

  /** The feature's own id (a string or an integer {@code id} member), or null. */
  static String ownId(JsonNode node) {
    JsonNode id = node == null ? null : node.get("id");
    return id != null && (id.isTextual() || id.isIntegralNumber()) ? id.asText() : null;
  }

  private static String digestId(JsonNode geometry, String properties) {
    MessageDigest d = Sha256.create();
    d.update(CanonicalJson.write(geometry).getBytes(StandardCharsets.UTF_8));
    d.update((byte) 0);
    d.update(properties.getBytes(StandardCharsets.UTF_8));
    return "sha256:" + HexFormat.of().formatHex(d.digest(), 0, 16);
  }
}
