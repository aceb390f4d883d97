package io.tilebeam.transforms.tiling;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.transforms.crs.CrsFacts;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.digest.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a tile matrix set from its OGC JSON encoding (OGC 17-083r4, TMS 2.0): {@code id}, {@code
 * crs} (a URI string, or an object with {@code uri} or {@code wkt}), {@code orderedAxes}, and
 * {@code tileMatrices} with {@code cellSize}, {@code cornerOfOrigin}, {@code pointOfOrigin}, tile
 * and matrix sizes. Zoom {@code z} is the matrix's position in the list.
 *
 * <p>{@code pointOfOrigin} is in the order {@code orderedAxes} states (or, without it, the CRS's
 * own axis order): a set on EPSG:3035 with {@code orderedAxes: ["Y", "X"]} gives northing first.
 * Everything inside tilebeam is east/north, so such points are swapped here.
 */
public final class TileMatrixSetJson {

  private static final Set<String> NORTH_LABELS =
      Set.of("y", "n", "north", "northing", "lat", "latitude", "φ");
  private static final Set<String> EAST_LABELS =
      Set.of("x", "e", "east", "easting", "lon", "long", "longitude", "λ");

  private TileMatrixSetJson() {}

  /**
   * Parses a tile matrix set. Its identity is {@code <id>@<first 16 hex of the SHA-256 of the
   * definition's canonical JSON>}, so that any change of definition changes every work key.
   *
   * @throws IllegalArgumentException naming the member that is missing or wrong
   */
  public static TileMatrixSet parse(String json) {
    JsonNode root = CanonicalJson.parse(json);
    if (!root.isObject()) {
      throw new IllegalArgumentException("a tile matrix set must be a JSON object");
    }
    String id = text(root, "id");
    CrsRef crs = crs(root.get("crs"));
    boolean northFirst = northFirst(root.get("orderedAxes"), crs);
    JsonNode list = root.get("tileMatrices");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw new IllegalArgumentException("tileMatrices must be a non-empty array");
    }
    List<TileMatrix> matrices = new ArrayList<>();
    for (int z = 0; z < list.size(); z++) {
      matrices.add(matrix(list.get(z), z, northFirst));
    }
    String identity = id + "@" + Sha256.hex(CanonicalJson.write(root)).substring(0, 16);
    return TileMatrixSet.of(id, identity, crs, matrices, 90);
  }

  private static TileMatrix matrix(JsonNode m, int z, boolean northFirst) {
    String at = "tileMatrices[" + z + "]";
    if (m.has("variableMatrixWidths")) {
      throw new IllegalArgumentException(at + ".variableMatrixWidths is not supported");
    }
    double cellSize = positive(m, "cellSize", at);
    int tileWidth = (int) positive(m, "tileWidth", at);
    int tileHeight = (int) positive(m, "tileHeight", at);
    long matrixWidth = (long) positive(m, "matrixWidth", at);
    long matrixHeight = (long) positive(m, "matrixHeight", at);
    JsonNode origin = m.get("pointOfOrigin");
    if (origin == null || !origin.isArray() || origin.size() != 2) {
      throw new IllegalArgumentException(at + ".pointOfOrigin must be two numbers");
    }
    double east = origin.get(northFirst ? 1 : 0).doubleValue();
    double north = origin.get(northFirst ? 0 : 1).doubleValue();
    String corner = m.path("cornerOfOrigin").asText("topLeft");
    double spanX = cellSize * tileWidth;
    double spanY = cellSize * tileHeight;
    switch (corner) {
      case "topLeft":
        return new TileMatrix(
            z, east, north, spanX, spanY, matrixWidth, matrixHeight, tileWidth, tileHeight, false);
      case "bottomLeft":
        return new TileMatrix(
            z,
            east,
            north + matrixHeight * spanY,
            spanX,
            spanY,
            matrixWidth,
            matrixHeight,
            tileWidth,
            tileHeight,
            true);
      default:
        throw new IllegalArgumentException(
            at + ".cornerOfOrigin '" + corner + "' is not topLeft or bottomLeft");
    }
  }

  private static CrsRef crs(JsonNode node) {
    if (node == null) {
      throw new IllegalArgumentException("crs is required");
    }
    if (node.isTextual()) {
      return CrsRef.of(node.asText());
    }
    if (node.has("uri")) {
      return CrsRef.of(node.get("uri").asText());
    }
    if (node.has("wkt")) {
      JsonNode wkt = node.get("wkt");
      if (wkt.isTextual()) {
        return CrsRef.of(wkt.asText());
      }
    }
    throw new IllegalArgumentException("crs must be a URI or {\"uri\": …} or {\"wkt\": \"…\"}");
  }

  /** Whether the first ordinate of points in the definition is the northing. */
  private static boolean northFirst(JsonNode orderedAxes, CrsRef crs) {
    if (orderedAxes != null && orderedAxes.isArray() && orderedAxes.size() == 2) {
      String first = orderedAxes.get(0).asText().toLowerCase(Locale.ROOT);
      String second = orderedAxes.get(1).asText().toLowerCase(Locale.ROOT);
      if (NORTH_LABELS.contains(first) && EAST_LABELS.contains(second)) {
        return true;
      }
      if (EAST_LABELS.contains(first) && NORTH_LABELS.contains(second)) {
        return false;
      }
      throw new IllegalArgumentException(
          "orderedAxes " + orderedAxes + " does not name an east and a north axis");
    }
    // Without orderedAxes the CRS's own (authority) axis order applies.
    return CrsFacts.northFirstAsDefined(crs);
  }

  private static double positive(JsonNode m, String field, String at) {
    JsonNode v = m.get(field);
    if (v == null || !v.isNumber() || !(v.doubleValue() > 0)) {
      throw new IllegalArgumentException(at + "." + field + " must be a positive number, was " + v);
    }
    return v.doubleValue();
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return v.asText();
  }
}
