package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.feature.Feature;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * One GeoJSON Feature object to a {@link Feature}, the same for every GeoJSON flavour (a
 * FeatureCollection's members, GeoJSONSeq records): the id from the {@code id} member, the rest as
 * {@link SourceFeatures} says for every format.
 */
final class GeoJsonFeatures {

  // The reader under the default limits (JsonLimits), for sources that set none and for trees.
  static final ObjectMapper MAPPER = JsonLimits.DEFAULT.mapper();

  private final GeoJsonGeometry geometries = new GeoJsonGeometry(new GeometryFactory());
  private final SourceFeatures features = new SourceFeatures();
  private GeoJsonStreamedFeatures streamed;

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
    if (props != null && !props.isNull() && !props.isObject()) {
      throw new IllegalArgumentException("properties must be an object, not " + props);
    }
    ObjectNode properties =
        props == null || props.isNull() ? MAPPER.createObjectNode() : (ObjectNode) props;
    return features.feature(ownId(node), g, properties);
  }

  /**
   * The feature at the parser's {@code START_OBJECT}, read straight from its tokens ({@link
   * GeoJsonStreamedFeatures}), the parser left at its end; null when it is for {@link #toFeature},
   * which reads what the fast way leaves (a fault, a GeometryCollection) as a tree.
   *
   * @param mapper reads the id and properties, under the source's limits
   */
  Feature read(com.fasterxml.jackson.core.JsonParser p, ObjectMapper mapper)
      throws java.io.IOException {
    if (streamed == null) {
      streamed = new GeoJsonStreamedFeatures(mapper);
    }
    return streamed.read(p);
  }

  /** Unclosed polygon rings closed so far. */
  long ringsClosed() {
    return geometries.ringsClosed() + (streamed == null ? 0 : streamed.ringsClosed());
  }

  /** The feature's own id (a string or an integer {@code id} member), or null. */
  static String ownId(JsonNode node) {
    return node == null ? null : SourceFeatures.idOf(node.get("id"));
  }
}
