package io.tilebeam.transforms.key;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.tiling.TileId;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Everything that decides one tile's output, and nothing that varies between attempts (no run id,
 * time, host or temporary path). Its canonical JSON ({@link #encode()}) is what the {@link WorkKey}
 * hashes.
 *
 * @param namespace the effect the output belongs to; two products never share one
 * @param algorithmVersion bumped whenever the bytes written for the same inputs change
 * @param layer the layer name, {@code [a-z0-9_-]{1,64}}
 * @param tileMatrixSet the matrix set identity, for example {@code WebMercatorQuad}
 * @param tile the tile
 * @param source the source identity, for example {@code sha256:<hex>} of its content
 * @param sourceCrs the normalised identity of the source CRS
 * @param targetCrs the normalised identity of the target CRS
 * @param format the output format, for example {@code flatgeobuf}
 * @param params canonical JSON object of every job parameter that changes the bytes
 */
public record TileWork(
    String namespace,
    int algorithmVersion,
    String layer,
    String tileMatrixSet,
    TileId tile,
    String source,
    String sourceCrs,
    String targetCrs,
    String format,
    String params)
    implements Serializable {

  /** The layer names that paths, keys and table rows accept. */
  public static final Pattern LAYER_NAME = Pattern.compile("[a-z0-9_-]{1,64}");

  /** Checks every field; {@code params} is re-written in canonical form. */
  public TileWork {
    require("namespace", namespace);
    require("layer", layer);
    require("tileMatrixSet", tileMatrixSet);
    require("source", source);
    require("sourceCrs", sourceCrs);
    require("targetCrs", targetCrs);
    require("format", format);
    if (algorithmVersion < 1) {
      throw new IllegalArgumentException("algorithmVersion must be >= 1, was " + algorithmVersion);
    }
    if (!LAYER_NAME.matcher(layer).matches()) {
      throw new IllegalArgumentException("layer '" + layer + "' is not [a-z0-9_-]{1,64}");
    }
    if (tile == null) {
      throw new IllegalArgumentException("tile is required");
    }
    params = canonicalParams(params == null ? "{}" : params);
  }

  /**
   * Canonical forms of the params strings seen; a job has a handful, and keys are made per tile.
   */
  private static final Map<String, String> CANONICAL_PARAMS = new ConcurrentHashMap<>();

  private static String canonicalParams(String params) {
    String canonical = CANONICAL_PARAMS.get(params);
    if (canonical == null) {
      JsonNode p = CanonicalJson.parse(params);
      if (!p.isObject()) {
        throw new IllegalArgumentException("params must be a JSON object, was " + params);
      }
      canonical = CanonicalJson.write(p);
      if (CANONICAL_PARAMS.size() < 10_000) {
        CANONICAL_PARAMS.put(params, canonical);
      }
    }
    return canonical;
  }

  /** The same work for another tile. */
  public TileWork withTile(TileId other) {
    return new TileWork(
        namespace,
        algorithmVersion,
        layer,
        tileMatrixSet,
        other,
        source,
        sourceCrs,
        targetCrs,
        format,
        params);
  }

  /**
   * The canonical JSON of this work: sorted keys, no whitespace, one number form. Written directly
   * (members in sorted order, params already canonical) because it is computed once per tile.
   */
  public String encode() {
    return encodeAllButTile() + encodeTile(tile);
  }

  /**
   * The canonical JSON up to the tile's members, which sort last ({@code x}, {@code y}, {@code z}):
   * the part that {@link KeyHasher} digests once for a whole layer.
   */
  String encodeAllButTile() {
    StringBuilder s = new StringBuilder(320 + params.length());
    s.append("{\"algorithm\":").append(algorithmVersion);
    CanonicalJson.appendString(s.append(",\"format\":"), format);
    CanonicalJson.appendString(s.append(",\"layer\":"), layer);
    CanonicalJson.appendString(s.append(",\"namespace\":"), namespace);
    s.append(",\"params\":").append(params);
    CanonicalJson.appendString(s.append(",\"source\":"), source);
    CanonicalJson.appendString(s.append(",\"sourceCrs\":"), sourceCrs);
    CanonicalJson.appendString(s.append(",\"targetCrs\":"), targetCrs);
    CanonicalJson.appendString(s.append(",\"tileMatrixSet\":"), tileMatrixSet);
    return s.toString();
  }

  /** The rest of the canonical JSON: the tile's members and the closing brace. */
  static String encodeTile(TileId tile) {
    return ",\"x\":" + tile.x() + ",\"y\":" + tile.y() + ",\"z\":" + tile.z() + "}";
  }

  /**
   * Reads work back from its canonical JSON.
   *
   * @throws IllegalArgumentException when a field is missing or malformed
   */
  public static TileWork decode(String json) {
    JsonNode o = CanonicalJson.parse(json);
    return new TileWork(
        text(o, "namespace"),
        o.path("algorithm").asInt(),
        text(o, "layer"),
        text(o, "tileMatrixSet"),
        TileId.of(o.path("z").asInt(), o.path("x").asLong(), o.path("y").asLong()),
        text(o, "source"),
        text(o, "sourceCrs"),
        text(o, "targetCrs"),
        text(o, "format"),
        CanonicalJson.write(o.path("params")));
  }

  private static String text(JsonNode o, String field) {
    JsonNode n = o.get(field);
    if (n == null || !n.isTextual()) {
      throw new IllegalArgumentException("tile work field '" + field + "' is missing");
    }
    return n.asText();
  }

  private static void require(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("tile work field '" + field + "' is required");
    }
  }
}
