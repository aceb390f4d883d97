package io.tilebeam.io.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.codec.parquet.ParquetFile;
import io.tilebeam.codec.parquet.ParquetWriter;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.digest.CanonicalJson;
import io.tilebeam.transforms.reproject.RenderedFeature;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.wololo.flatgeobuf.generated.ColumnType;

/**
 * GeoParquet 1.1, one file a tile: an {@code id} column, one column per property (typed as the
 * FlatGeobuf columns are: booleans, 64-bit integers, doubles, strings, and JSON text for anything
 * else; null where a feature has none), the {@code geometry} as WKB, and a {@code bbox} covering
 * struct (xmin, ymin, xmax, ymax, with min/max statistics), rows in the tile's feature order (by
 * id); the {@code geo} metadata gives the CRS as PROJJSON (left out for CRS84, GeoParquet's
 * default), the geometry types and the tile's bbox. Uncompressed PLAIN pages: the same tile gives
 * the same bytes.
 */
public final class GeoParquetFormat implements VectorFormat {

  private static final long serialVersionUID = 1L;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Override
  public String name() {
    return "geoparquet";
  }

  @Override
  public String extension() {
    return "parquet";
  }

  @Override
  public String mediaType() {
    return "application/vnd.apache.parquet";
  }

  @Override
  public Encoded encode(RenderedTile tile, CrsRef crs) throws IOException {
    List<RenderedFeature> features = tile.features();
    int n = features.size();
    PropertyColumns properties = PropertyColumns.of(features);
    Object[] ids = new Object[n];
    Object[] wkb = new Object[n];
    Object[][] box = new Object[4][n];
    TreeSet<String> types = new TreeSet<>();
    Envelope all = new Envelope();
    WKBReader reader = new WKBReader();
    for (int i = 0; i < n; i++) {
      RenderedFeature f = features.get(i);
      ids[i] = f.id();
      wkb[i] = f.wkb();
      Geometry g;
      try {
        g = reader.read(f.wkb());
      } catch (ParseException e) {
        throw new IOException("feature " + f.id() + " has unreadable WKB: " + e.getMessage(), e);
      }
      types.add(g.getGeometryType());
      Envelope e = g.getEnvelopeInternal();
      all.expandToInclude(e);
      box[0][i] = e.getMinX();
      box[1][i] = e.getMinY();
      box[2][i] = e.getMaxX();
      box[3][i] = e.getMaxY();
    }
    List<ParquetWriter.Column> columns = new ArrayList<>();
    columns.add(new ParquetWriter.Column(null, "id", ParquetFile.BYTE_ARRAY, "STRING", false, ids));
    for (int c = 0; c < properties.names().size(); c++) {
      columns.add(propertyColumn(properties, c, features));
    }
    columns.add(
        new ParquetWriter.Column(null, "geometry", ParquetFile.BYTE_ARRAY, null, false, wkb));
    String[] corners = {"xmin", "ymin", "xmax", "ymax"};
    for (int k = 0; k < 4; k++) {
      columns.add(
          new ParquetWriter.Column("bbox", corners[k], ParquetFile.DOUBLE, null, false, box[k]));
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put("geo", geo(crs, types, all, n));
    return new Encoded(ParquetWriter.write(columns, n, metadata), n);
  }

  private static ParquetWriter.Column propertyColumn(
      PropertyColumns properties, int c, List<RenderedFeature> features) {
    String name = properties.names().get(c);
    int type = properties.types().get(c);
    Object[] values = new Object[features.size()];
    for (int i = 0; i < values.length; i++) {
      JsonNode v = properties.properties(features.get(i)).get(name);
      if (v == null || v.isNull()) {
        continue;
      }
      values[i] =
          switch (type) {
            case ColumnType.Bool -> v.booleanValue();
            case ColumnType.Long -> v.longValue();
            case ColumnType.Double -> v.doubleValue();
            case ColumnType.String -> v.asText();
            default -> CanonicalJson.write(v);
          };
    }
    return switch (type) {
      case ColumnType.Bool ->
          new ParquetWriter.Column(null, name, ParquetFile.BOOLEAN, null, true, values);
      case ColumnType.Long ->
          new ParquetWriter.Column(null, name, ParquetFile.INT64, null, true, values);
      case ColumnType.Double ->
          new ParquetWriter.Column(null, name, ParquetFile.DOUBLE, null, true, values);
      case ColumnType.String ->
          new ParquetWriter.Column(null, name, ParquetFile.BYTE_ARRAY, "STRING", true, values);
      default -> new ParquetWriter.Column(null, name, ParquetFile.BYTE_ARRAY, "JSON", true, values);
    };
  }

  /**
   * Whether writing files in {@code crs} opens no EPSG database: CRS84, which GeoParquet leaves
   * unnamed, or a CRS whose PROJJSON a run of this build remembered.
   */
  public static boolean crsWrittenWithoutDatabase(CrsRef crs) {
    return unnamed(crs) || Projjson.known(crs);
  }

  /** Whether GeoParquet leaves {@code crs} unnamed: CRS84, its default. */
  private static boolean unnamed(CrsRef crs) {
    return crs.identity().equals(CrsResolver.CRS84);
  }

  /** The {@code geo} metadata. */
  private static String geo(CrsRef crs, TreeSet<String> types, Envelope all, int rows)
      throws IOException {
    ObjectNode geo = MAPPER.createObjectNode();
    geo.put("version", "1.1.0");
    geo.put("primary_column", "geometry");
    ObjectNode column = geo.putObject("columns").putObject("geometry");
    column.put("encoding", "WKB");
    ArrayNode t = column.putArray("geometry_types");
    types.forEach(t::add);
    if (!unnamed(crs)) {
      column.set("crs", Projjson.of(crs));
    }
    if (rows > 0) {
      ArrayNode bbox = column.putArray("bbox");
      bbox.add(all.getMinX()).add(all.getMinY()).add(all.getMaxX()).add(all.getMaxY());
    }
    ObjectNode covering = column.putObject("covering").putObject("bbox");
    for (String k : List.of("xmin", "ymin", "xmax", "ymax")) {
      covering.putArray(k).add("bbox").add(k);
    }
    return MAPPER.writeValueAsString(geo);
  }

  @Override
  public long countFeatures(byte[] bytes) throws IOException {
    ParquetFile file =
        ParquetFile.open(
            new ParquetFile.Ranges() {
              @Override
              public byte[] read(long offset, int length) {
                return java.util.Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
              }

              @Override
              public long size() {
                return bytes.length;
              }
            });
    if (!file.metadata().containsKey("geo")) {
      throw new IOException("a GeoParquet tile without its geo metadata");
    }
    // Every column read back, the geometries among them: a page that does not decode fails here.
    for (ParquetFile.RowGroup g : file.rowGroups()) {
      for (ParquetFile.Chunk c : g.chunks()) {
        if (file.values(c).length != g.rows()) {
          throw new IOException("column " + c.column().name() + " does not hold a value a row");
        }
      }
    }
    return file.rows();
  }
}
