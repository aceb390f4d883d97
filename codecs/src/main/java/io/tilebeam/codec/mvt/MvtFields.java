package io.tilebeam.codec.mvt;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The layers of Mapbox Vector Tiles and the type of each of their fields, gathered tile by tile:
 * what a PMTiles archive's {@code vector_layers} metadata lists. Types are named as tippecanoe
 * names them: {@code String}, {@code Number}, {@code Boolean}, and {@code Mixed} for a field whose
 * values differ in type. Sorted maps, so the same tiles give the same listing.
 */
public final class MvtFields {

  private static final String MIXED = "Mixed";

  private final Map<String, Map<String, String>> layers = new TreeMap<>();

  /** Adds the layers and fields of one tile. */
  public void add(byte[] tile) throws IOException {
    Protobuf.Reader r = new Protobuf.Reader(tile);
    while (r.next()) {
      if (r.field() == 3 && r.wireType() == Protobuf.LENGTH_DELIMITED) {
        layer(r.message());
      } else {
        r.skip();
      }
    }
  }

  /** Each layer's fields and their types, by layer name then field name. */
  public Map<String, Map<String, String>> layers() {
    return layers;
  }

  private void layer(Protobuf.Reader layer) throws IOException {
    String name = "";
    List<String> keys = new ArrayList<>();
    List<String> valueTypes = new ArrayList<>();
    List<Protobuf.Reader> features = new ArrayList<>();
    while (layer.next()) {
      switch (layer.field()) {
        case 1 -> name = layer.string();
        case 2 -> features.add(layer.message());
        case 3 -> keys.add(layer.string());
        case 4 -> valueTypes.add(valueType(layer.message()));
        default -> layer.skip();
      }
    }
    Map<String, String> fields = layers.computeIfAbsent(name, n -> new TreeMap<>());
    for (Protobuf.Reader feature : features) {
      tags(feature, keys, valueTypes, fields);
    }
  }

  /** The key and value indices of a feature's tags (field 2, packed pairs). */
  private static void tags(
      Protobuf.Reader feature,
      List<String> keys,
      List<String> valueTypes,
      Map<String, String> fields)
      throws IOException {
    while (feature.next()) {
      if (feature.field() != 2 || feature.wireType() != Protobuf.LENGTH_DELIMITED) {
        feature.skip();
        continue;
      }
      Protobuf.Reader packed = feature.message();
      while (packed.hasMore()) {
        long k = packed.varint();
        long v = packed.varint();
        if (k >= keys.size() || v >= valueTypes.size()) {
          throw new IOException("a feature's tag points past its layer's keys or values");
        }
        fields.merge(keys.get((int) k), valueTypes.get((int) v), (a, b) -> a.equals(b) ? a : MIXED);
      }
    }
  }

  /** A value message's type: field 1 a string, 7 a boolean, the others numbers. */
  private static String valueType(Protobuf.Reader value) throws IOException {
    String type = MIXED;
    while (value.next()) {
      type =
          switch (value.field()) {
            case 1 -> "String";
            case 7 -> "Boolean";
            default -> "Number";
          };
      value.skip();
    }
    return type;
  }
}
