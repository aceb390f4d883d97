package io.tilebeam.io.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.flatbuffers.FlatBufferBuilder;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.reproject.RenderedFeature;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.wololo.flatgeobuf.generated.ColumnType;

/**
 * FlatGeobuf columns for a tile's properties: the sorted union of the names, each typed by the
 * values it holds (all booleans: Bool; all integers: Long; all numbers: Double; all strings:
 * String; anything else, nested or mixed: Json as canonical JSON text). Null values are left out.
 */
final class PropertyColumns {

  private final List<String> names;
  private final List<Integer> types;
  // Each distinct properties text of the tile, parsed once: features cut from one source feature,
  // and many features of plain data, share theirs.
  private final Map<String, JsonNode> parsed;
  private ByteBuffer pairs = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

  private PropertyColumns(List<String> names, List<Integer> types, Map<String, JsonNode> parsed) {
    this.names = names;
    this.types = types;
    this.parsed = parsed;
  }

  static PropertyColumns of(List<RenderedFeature> features) {
    Map<String, Integer> types = new TreeMap<>();
    Map<String, JsonNode> parsed = new java.util.HashMap<>();
    for (RenderedFeature f : features) {
      if (parsed.containsKey(f.properties())) {
        continue;
      }
      JsonNode props = CanonicalJson.parse(f.properties());
      parsed.put(f.properties(), props);
      props
          .fields()
          .forEachRemaining(
              e -> {
                if (!e.getValue().isNull()) {
                  types.merge(e.getKey(), typeOf(e.getValue()), PropertyColumns::widen);
                }
              });
    }
    return new PropertyColumns(
        new ArrayList<>(types.keySet()), new ArrayList<>(types.values()), parsed);
  }

  List<String> names() {
    return names;
  }

  List<Integer> types() {
    return types;
  }

  /** A feature's properties, parsed (once for every feature sharing their text). */
  JsonNode properties(RenderedFeature feature) {
    JsonNode props = parsed.get(feature.properties());
    return props != null ? props : CanonicalJson.parse(feature.properties());
  }

  /**
   * Writes a feature's FlatGeobuf property bytes, (column index, value) pairs, little-endian, as a
   * byte vector of {@code builder}, and returns the vector's offset. The pairs are assembled in one
   * buffer kept for the tile: a tile of ten thousand features would otherwise make a few small
   * buffers per feature.
   */
  int encode(RenderedFeature feature, FlatBufferBuilder builder) {
    JsonNode props = parsed.get(feature.properties());
    if (props == null) {
      props = CanonicalJson.parse(feature.properties());
    }
    pairs.clear();
    for (int i = 0; i < names.size(); i++) {
      JsonNode v = props.get(names.get(i));
      if (v == null || v.isNull()) {
        continue;
      }
      switch (types.get(i)) {
        case ColumnType.Bool:
          room(3).putShort((short) i).put((byte) (v.booleanValue() ? 1 : 0));
          break;
        case ColumnType.Long:
          room(10).putShort((short) i).putLong(v.longValue());
          break;
        case ColumnType.Double:
          room(10).putShort((short) i).putDouble(v.doubleValue());
          break;
        default:
          byte[] text =
              (types.get(i) == ColumnType.String ? v.asText() : CanonicalJson.write(v))
                  .getBytes(StandardCharsets.UTF_8);
          room(6 + text.length).putShort((short) i).putInt(text.length).put(text);
      }
    }
    return builder.createByteVector(pairs.array(), 0, pairs.position());
  }

  /** The pair buffer, grown when {@code bytes} more would not fit. */
  private ByteBuffer room(int bytes) {
    if (pairs.remaining() < bytes) {
      ByteBuffer grown =
          ByteBuffer.allocate(Math.max(pairs.capacity() * 2, pairs.position() + bytes))
              .order(ByteOrder.LITTLE_ENDIAN);
      grown.put(pairs.array(), 0, pairs.position());
      pairs = grown;
    }
    return pairs;
  }

  private static int typeOf(JsonNode v) {
    if (v.isBoolean()) {
      return ColumnType.Bool;
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return ColumnType.Long;
    }
    if (v.isNumber()) {
      return ColumnType.Double;
    }
    return v.isTextual() ? ColumnType.String : ColumnType.Json;
  }

  private static int widen(int a, int b) {
    if (a == b) {
      return a;
    }
    boolean numeric =
        (a == ColumnType.Long || a == ColumnType.Double)
            && (b == ColumnType.Long || b == ColumnType.Double);
    return numeric ? ColumnType.Double : ColumnType.Json;
  }
}
