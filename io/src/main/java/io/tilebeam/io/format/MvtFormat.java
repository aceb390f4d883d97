package io.tilebeam.io.format;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.codec.mvt.MvtGeometry;
import io.tilebeam.codec.mvt.Protobuf;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * Mapbox Vector Tile 2.1: one layer named after the tilebeam layer, geometry on the tile's grid of
 * {@value #EXTENT} units a side (see {@link MvtGeometry}). Only for WebMercatorQuad tiles in
 * EPSG:3857, which the job check enforces. The renderer has already clipped each feature to the
 * tile plus the job's {@code bufferPixels}, so the buffer is the job's.
 *
 * <p>Each feature's MVT id is its 1-based position in the tile (features come in id order) and its
 * source id is the {@value #ID_ATTRIBUTE} attribute: MVT ids are integers, source ids need not be.
 * Properties keep their names and sorted order; strings, booleans, integers (sint64) and other
 * numbers (double) keep their types, nested values are written as canonical JSON text, nulls are
 * left out. A feature with nothing left on the grid (a polygon smaller than a grid unit) cannot be
 * written; the count returned with the bytes says how many were. Pieces come finished on this grid
 * ({@link #gridExtent()}), valid there, so encoding snaps nothing again.
 */
public final class MvtFormat implements VectorFormat {

  /** The grid's size in units, the spec's usual value. */
  public static final int EXTENT = 4096;

  /** The attribute that holds a feature's source id. */
  public static final String ID_ATTRIBUTE = "tilebeam_id";

  private static final long serialVersionUID = 1L;

  /**
   * A ring smaller than the default tolerance (one grid unit) is no polygon the grid can draw: the
   * encoder would leave it out, and kept until then it only costs repairs.
   */
  @Override
  public boolean dropsSpecks() {
    return true;
  }

  /** The renderer finishes each piece on the tile's grid, which the encoder writes as it is. */
  @Override
  public int gridExtent() {
    return EXTENT;
  }

  @Override
  public String name() {
    return "mvt";
  }

  @Override
  public String mediaType() {
    return "application/vnd.mapbox-vector-tile";
  }

  /**
   * One unit of the 4096-unit grid, 1/16 of a pixel, below which the grid cannot show a vertex
   * anyway.
   */
  @Override
  public double defaultSimplifyPixels() {
    return 1.0 / 16;
  }

  /** Vector tiles are Web Mercator tiles: their grid is the tile's. */
  @Override
  public String requiredTileMatrixSet() {
    return "WebMercatorQuad";
  }

  @Override
  public String requiredCrs() {
    return "EPSG:3857";
  }

  @Override
  public String extension() {
    return "mvt";
  }

  @Override
  public Encoded encode(RenderedTile tile, CrsRef crs) throws IOException {
    if (!"WebMercatorQuad".equals(tile.work().tileMatrixSet())
        || !"EPSG:3857".equals(crs.identity())) {
      throw new IOException(
          "MVT needs WebMercatorQuad tiles in EPSG:3857, not "
              + tile.work().tileMatrixSet()
              + " in "
              + crs.identity());
    }
    TileId id = tile.work().tile();
    Bounds b = TileMatrixSet.webMercatorQuad().matrix(id.z()).tileBounds(id.x(), id.y());
    Envelope envelope = new Envelope(b.minX(), b.maxX(), b.minY(), b.maxY());

    Values values = new Values();
    Map<String, Integer> keys = new LinkedHashMap<>();
    // Each feature is written into one reused message, then into the layer after its name.
    Protobuf.Writer layer = new Protobuf.Writer().varintField(15, 2);
    layer.stringField(1, tile.work().layer());
    Protobuf.Writer feature = new Protobuf.Writer();
    int features = 0;
    WKBReader reader = new WKBReader();
    for (RenderedFeature f : tile.features()) {
      Geometry g;
      try {
        g = reader.read(f.wkb());
      } catch (ParseException e) {
        throw new IOException("feature " + f.id() + " has unreadable WKB", e);
      }
      // The geometry was read for this tile alone: moved onto the grid as it is, not copied.
      MvtGeometry.Commands commands = MvtGeometry.encodeInPlace(g, envelope, EXTENT);
      if (commands == null) {
        continue;
      }
      Map<String, Object> attributes = attributes(f);
      int[] tags = new int[attributes.size() * 2];
      int t = 0;
      for (Map.Entry<String, Object> a : attributes.entrySet()) {
        tags[t++] = keys.computeIfAbsent(a.getKey(), k -> keys.size());
        tags[t++] = values.index(a.getValue());
      }
      features++;
      feature
          .clear()
          .varintField(1, features)
          .packedField(2, tags, tags.length)
          .varintField(3, commands.type())
          .packedField(4, commands.values(), commands.length());
      layer.messageField(2, feature);
    }
    keys.keySet().forEach(k -> layer.stringField(3, k));
    values.encoded.forEach(v -> layer.bytesField(4, v));
    layer.varintField(5, EXTENT);
    byte[] bytes = new Protobuf.Writer().messageField(3, layer).toByteArray();
    return new Encoded(bytes, features);
  }

  /**
   * Counts the features of every layer, reading each feature's geometry commands through: a tile
   * whose messages or commands do not parse is not a vector tile.
   */
  @Override
  public long countFeatures(byte[] bytes) throws IOException {
    long count = 0;
    Protobuf.Reader tile = new Protobuf.Reader(bytes);
    while (tile.next()) {
      if (tile.field() == 3 && tile.wireType() == Protobuf.LENGTH_DELIMITED) {
        Protobuf.Reader layer = tile.message();
        while (layer.next()) {
          if (layer.field() == 2 && layer.wireType() == Protobuf.LENGTH_DELIMITED) {
            checkFeature(layer.message());
            count++;
          } else {
            layer.skip();
          }
        }
      } else {
        throw new IOException("not a vector tile: unexpected field " + tile.field());
      }
    }
    return count;
  }

  private static void checkFeature(Protobuf.Reader feature) throws IOException {
    boolean typed = false;
    while (feature.next()) {
      if (feature.field() == 3) {
        long type = feature.varint();
        typed = type >= MvtGeometry.POINT && type <= MvtGeometry.POLYGON;
      } else if (feature.field() == 4 && feature.wireType() == Protobuf.LENGTH_DELIMITED) {
        checkCommands(feature.message());
      } else {
        feature.skip();
      }
    }
    if (!typed) {
      throw new IOException("a feature has no geometry type");
    }
  }

  private static void checkCommands(Protobuf.Reader packed) throws IOException {
    while (packed.hasMore()) {
      long command = packed.varint();
      int id = (int) (command & 0x7);
      long count = command >>> 3;
      long params =
          switch (id) {
            case 1, 2 -> count * 2;
            case 7 -> 0;
            default -> throw new IOException("unknown geometry command " + id);
          };
      for (long i = 0; i < params; i++) {
        packed.varint();
      }
    }
  }

  /** The id attribute, then the properties in their canonical (sorted) order. */
  private static Map<String, Object> attributes(RenderedFeature f) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(ID_ATTRIBUTE, f.id());
    CanonicalJson.parse(f.properties())
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getKey().equals(ID_ATTRIBUTE) && !e.getValue().isNull()) {
                out.put(e.getKey(), value(e.getValue()));
              }
            });
    return out;
  }

  private static Object value(JsonNode v) {
    if (v.isTextual()) {
      return v.asText();
    }
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    if (v.isIntegralNumber() && v.canConvertToLong()) {
      return v.asLong();
    }
    if (v.isNumber()) {
      return v.asDouble();
    }
    return CanonicalJson.write(v);
  }

  /** The layer's value table: each distinct value once, in first-use order. */
  private static final class Values {
    private final Map<Object, Integer> index = new LinkedHashMap<>();
    private final List<byte[]> encoded = new ArrayList<>();

    int index(Object value) {
      // Keyed by type as well: 1 (long), 1.0 (double) and "1" are three values.
      Object key = value.getClass().getSimpleName() + ":" + value;
      Integer i = index.get(key);
      if (i == null) {
        i = encoded.size();
        index.put(key, i);
        encoded.add(encode(value));
      }
      return i;
    }

    private static byte[] encode(Object value) {
      Protobuf.Writer w = new Protobuf.Writer();
      if (value instanceof String s) {
        w.stringField(1, s);
      } else if (value instanceof Double d) {
        w.fixed64Field(3, Double.doubleToRawLongBits(d));
      } else if (value instanceof Long l) {
        w.varintField(6, (l << 1) ^ (l >> 63));
      } else if (value instanceof Boolean b) {
        w.varintField(7, b ? 1 : 0);
      } else {
        throw new IllegalArgumentException("no MVT value type for " + value.getClass());
      }
      return w.toByteArray();
    }
  }
}
