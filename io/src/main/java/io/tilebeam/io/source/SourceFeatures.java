package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.digest.Sha256;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.WkbBytes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBWriter;

/**
 * The one way every source format turns a geometry, its properties and its own id into a {@link
 * Feature}, so that the same data in any format gives the same features and the same tile bytes:
 *
 * <ul>
 *   <li>A property whose value is null is dropped: FlatGeobuf and GDAL cannot tell a null from an
 *       absent value, and a PostGIS table has a column for every property of every row.
 *   <li>Properties are canonical JSON (sorted keys, one number form).
 *   <li>A feature without its own id gets {@code sha256:} and 32 hex digits of a digest over its
 *       geometry as 2D WKB and its canonical properties. The digest is over WKB, not over the text
 *       of a file, so the same feature gets the same id in every format.
 * </ul>
 */
final class SourceFeatures {

  private final WKBWriter wkb = new WKBWriter(2);

  /** The feature; {@code ownId} null when the source gives it none. */
  Feature feature(String ownId, Geometry geometry, ObjectNode properties) {
    String props = properties(properties);
    byte[] bytes = WkbBytes.of(wkb, geometry);
    // The geometry goes along: a feature cut where it is read is not parsed back from its WKB.
    return new Feature(ownId != null ? ownId : digestId(bytes, props), bytes, props, geometry);
  }

  /** The canonical text of the properties, without the null ones. */
  static String properties(ObjectNode properties) {
    List<String> nulls = new ArrayList<>();
    properties
        .fields()
        .forEachRemaining(
            e -> {
              if (e.getValue().isNull()) {
                nulls.add(e.getKey());
              }
            });
    ObjectNode kept = properties;
    if (!nulls.isEmpty()) {
      kept = properties.deepCopy();
      kept.remove(nulls);
    }
    return CanonicalJson.write(kept);
  }

  /** The id of a feature that has none of its own. */
  static String digestId(byte[] wkb, String properties) {
    MessageDigest d = Sha256.create();
    d.update(wkb);
    d.update((byte) 0);
    d.update(properties.getBytes(StandardCharsets.UTF_8));
    return "sha256:" + HexFormat.of().formatHex(d.digest(), 0, 16);
  }

  /** An id given as a JSON value: a string or an integer; anything else is no id. */
  static String idOf(JsonNode id) {
    return id != null && (id.isTextual() || id.isIntegralNumber()) ? id.asText() : null;
  }
}
