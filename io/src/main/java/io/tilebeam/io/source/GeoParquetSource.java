package io.tilebeam.io.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.codec.parquet.ColumnChunks;
import io.tilebeam.codec.parquet.ParquetFile;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;

/**
 * A GeoParquet file (1.0 or 1.1) read row group by row group: its {@code geo} metadata gives the
 * primary geometry column (WKB), its CRS (PROJJSON; CRS84 when absent) and, in 1.1, a bbox covering
 * column whose row-group statistics let a row group that meets no wanted tile be skipped unread.
 * The other columns become properties; {@code idColumn} names the one holding ids.
 */
final class GeoParquetSource {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ParquetFile file;
  private final String idColumn;
  private final int geometry;
  private final int[] covering; // xmin, ymin, xmax, ymax columns, or null
  private final String declaredCrs;
  private final List<String> problems = new ArrayList<>();
  private final java.util.Set<Integer> skipped = new java.util.HashSet<>();
  private final java.util.Map<String, String> skippedColumns = new java.util.LinkedHashMap<>();
  private final SourceFeatures features = new SourceFeatures();
  private final org.apache.beam.sdk.metrics.Counter skippedGroups =
      org.apache.beam.sdk.metrics.Metrics.counter(
          ReadFeatures.class, ReadFeatures.ROW_GROUPS_SKIPPED);

  private GeoParquetSource(ParquetFile file, String idColumn, JsonNode geo) throws IOException {
    this.file = file;
    this.idColumn = idColumn;
    String primary = geo.path("primary_column").asText("geometry");
    JsonNode meta = geo.path("columns").path(primary);
    if (meta.isMissingNode()) {
      throw new SourceFormatException(
          "its geo metadata names primary column " + primary + " but does not describe it", null);
    }
    String encoding = meta.path("encoding").asText("");
    if (!encoding.equalsIgnoreCase("WKB")) {
      throw new SourceFormatException(
          "its geometry column "
              + primary
              + " is encoded as "
              + encoding
              + "; tilebeam reads WKB GeoParquet",
          null);
    }
    this.geometry = column(primary);
    if (geometry < 0 || file.columns().get(geometry).type() != ParquetFile.BYTE_ARRAY) {
      throw new SourceFormatException(
          "its geometry column " + primary + " is not a binary column", null);
    }
    JsonNode bbox = meta.path("covering").path("bbox");
    this.covering =
        bbox.isObject()
            ? new int[] {
              column(path(bbox.path("xmin"))),
              column(path(bbox.path("ymin"))),
              column(path(bbox.path("xmax"))),
              column(path(bbox.path("ymax")))
            }
            : null;
    JsonNode crs = meta.get("crs");
    this.declaredCrs = crs == null ? "OGC:CRS84" : crs.isNull() ? null : crsOf(crs);
    // Columns that cannot be properties (lists, maps, INT96) are left unread, each named once by
    // its top-level name; the geometry and bbox columns are read whatever else the file holds.
    for (int i = 0; i < file.columns().size(); i++) {
      ParquetFile.Column c = file.columns().get(i);
      String why = ColumnChunks.skips(c);
      if (why != null && i != geometry && !isCovering(i)) {
        skipped.add(i);
        skippedColumns.putIfAbsent(c.path().get(0), why);
      }
    }
    // Codecs and encodings are in the footer: a file the reader could not decode is refused when
    // the job is planned, not when a worker meets its first page.
    java.util.Set<String> pages = new java.util.LinkedHashSet<>();
    for (int g = 0; g < file.rowGroups().size(); g++) {
      List<ParquetFile.Chunk> chunks = file.rowGroups().get(g).chunks();
      for (int i = 0; i < chunks.size(); i++) {
        String refused = skipped.contains(i) ? null : ColumnChunks.refusesPages(chunks.get(i));
        if (refused != null) {
          pages.add(refused);
        }
      }
      if (covering != null) {
        checkStatistics(g, chunks);
      }
    }
    problems.addAll(pages);
  }

  /**
   * Opens a GeoParquet file and reads its footer.
   *
   * @throws SourceFormatException when it is not GeoParquet tilebeam reads
   * @throws IOException when it cannot be read
   */
  static GeoParquetSource open(SourceFile source, String idColumn) throws IOException {
    ParquetFile file;
    try {
      file =
          ParquetFile.open(
              new ParquetFile.Ranges() {
                @Override
                public byte[] read(long offset, int length) throws IOException {
                  return source.read(offset, length);
                }

                @Override
                public long size() throws IOException {
                  return source.size();
                }
              });
    } catch (IOException e) {
      if (e instanceof java.nio.file.NoSuchFileException) {
        throw e;
      }
      throw new SourceFormatException("not a Parquet file tilebeam reads: " + e.getMessage(), e);
    }
    String geo = file.metadata().get("geo");
    if (geo == null) {
      throw new SourceFormatException(
          "a Parquet file without GeoParquet's geo metadata (columns: "
              + file.columns().stream().map(ParquetFile.Column::name).toList()
              + ")",
          null);
    }
    JsonNode node;
    try {
      node = JSON.readTree(geo);
    } catch (IOException e) {
      throw new SourceFormatException("its geo metadata is not JSON: " + e.getMessage(), e);
    }
    return new GeoParquetSource(file, idColumn, node);
  }

  /** The CRS of a PROJJSON object: its authority code, which is how tilebeam names CRSs. */
  private static String crsOf(JsonNode projjson) throws SourceFormatException {
    JsonNode id = projjson.path("id");
    if (id.isObject() && id.hasNonNull("authority") && id.hasNonNull("code")) {
      return id.get("authority").asText() + ":" + id.get("code").asText();
    }
    if (projjson.isTextual()) {
      return projjson.asText(); // some writers put a WKT or code string here
    }
    throw new SourceFormatException(
        "its CRS is PROJJSON without an authority code (" + name(projjson) + "); give source.crs",
        null);
  }

  private static String name(JsonNode projjson) {
    return projjson.path("name").asText("unnamed");
  }

  private static List<String> path(JsonNode p) {
    List<String> out = new ArrayList<>();
    p.forEach(n -> out.add(n.asText()));
    return out;
  }

  private int column(String name) {
    return column(List.of(name));
  }

  private int column(List<String> path) {
    for (int i = 0; i < file.columns().size(); i++) {
      if (file.columns().get(i).path().equals(path)) {
        return i;
      }
    }
    return -1;
  }

  private boolean isCovering(int i) {
    if (covering == null) {
      return false;
    }
    for (int c : covering) {
      if (c == i) {
        return true;
      }
    }
    return false;
  }

  /**
   * The CRS its metadata declares ({@code OGC:CRS84} when it states none), or null when unknown.
   */
  String declaredCrs() {
    return declaredCrs;
  }

  /** The columns tilebeam cannot read, as messages; empty when it reads them all. */
  List<String> unreadableColumns() {
    return problems;
  }

  /**
   * The columns left out of the features' properties (by top-level name, in schema order), with
   * why: {@code a list or map}, {@code INT96 timestamps}.
   */
  java.util.Map<String, String> skippedColumns() {
    return skippedColumns;
  }

  /**
   * Refuses bbox statistics that are not finite numbers: a row group is skipped by them, so a NaN
   * would make the skip a guess.
   */
  private void checkStatistics(int g, List<ParquetFile.Chunk> chunks) throws SourceFormatException {
    for (int c : covering) {
      if (c < 0) {
        continue;
      }
      ParquetFile.Chunk chunk = chunks.get(c);
      for (byte[] stat : new byte[][] {chunk.min(), chunk.max()}) {
        Double v = number(chunk, stat);
        if (v != null && !Double.isFinite(v)) {
          throw new SourceFormatException(
              "row group "
                  + g
                  + " has statistics of "
                  + v
                  + " for its bbox column "
                  + chunk.column().name()
                  + ": bounds must be finite numbers",
              null);
        }
      }
    }
  }

  /** The names of its columns. */
  List<String> columnNames() {
    return file.columns().stream().map(ParquetFile.Column::name).toList();
  }

  /** Its row groups. */
  int rowGroups() {
    return file.rowGroups().size();
  }

  /**
   * The box of a row group from its covering column's statistics, or null when it has none.
   * Statistics are PLAIN-encoded little-endian doubles (or floats).
   */
  Bounds box(int rowGroup) {
    if (covering == null
        || covering[0] < 0
        || covering[1] < 0
        || covering[2] < 0
        || covering[3] < 0) {
      return null;
    }
    List<ParquetFile.Chunk> chunks = file.rowGroups().get(rowGroup).chunks();
    Double minX = number(chunks.get(covering[0]), chunks.get(covering[0]).min());
    Double minY = number(chunks.get(covering[1]), chunks.get(covering[1]).min());
    Double maxX = number(chunks.get(covering[2]), chunks.get(covering[2]).max());
    Double maxY = number(chunks.get(covering[3]), chunks.get(covering[3]).max());
    if (minX == null
        || minY == null
        || maxX == null
        || maxY == null
        || minX > maxX
        || minY > maxY) {
      return null;
    }
    return new Bounds(minX, minY, maxX, maxY);
  }

  private static Double number(ParquetFile.Chunk chunk, byte[] stat) {
    if (stat == null) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(stat).order(ByteOrder.LITTLE_ENDIAN);
    int type = chunk.column().type();
    if (type == ParquetFile.DOUBLE && stat.length == 8) {
      return b.getDouble();
    }
    if (type == ParquetFile.FLOAT && stat.length == 4) {
      return (double) b.getFloat();
    }
    return null;
  }

  /**
   * Reads row groups {@code [from, to)}: each whose box {@code wanted} refuses is skipped unread;
   * the others' rows become features ({@code action}) or bad features ({@code bad}).
   */
  void forEach(
      int from,
      int to,
      Predicate<Bounds> wanted,
      Consumer<Feature> action,
      Consumer<BadFeature> bad)
      throws IOException {
    for (int g = from; g < to && g < file.rowGroups().size(); g++) {
      Bounds box = box(g);
      if (box != null && wanted != null && !wanted.test(box)) {
        skippedGroups.inc();
        continue;
      }
      readRowGroup(g, action, bad);
    }
  }

  private void readRowGroup(int g, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    ParquetFile.RowGroup group = file.rowGroups().get(g);
    List<ParquetFile.Column> columns = file.columns();
    Object[][] values = new Object[columns.size()][];
    for (int i = 0; i < columns.size(); i++) {
      if (i == geometry || (!isCovering(i) && !skipped.contains(i))) {
        try {
          values[i] = file.values(group.chunks().get(i));
        } catch (io.tilebeam.codec.parquet.CorruptParquetException e) {
          throw new UnreadablePartException("row group " + g + ": " + e.getMessage(), box(g), e);
        }
      }
    }
    SourceWkb wkb = new SourceWkb();
    int id = idColumn == null ? -1 : column(List.of(idColumn));
    for (int row = 0; row < group.rows(); row++) {
      Object ownId = id < 0 ? null : values[id][row];
      String where = ownId != null ? ownId.toString() : "row group " + g + ", row " + row;
      byte[] bytes = (byte[]) values[geometry][row];
      if (bytes == null) {
        bad.accept(new BadFeature(where, "no geometry (null)"));
        continue;
      }
      Geometry geom;
      try {
        geom = wkb.read(bytes);
      } catch (ParseException | RuntimeException e) {
        bad.accept(new BadFeature(where, "unreadable WKB: " + e.getMessage()));
        continue;
      }
      ObjectNode properties = JsonNodeFactory.instance.objectNode();
      for (int i = 0; i < columns.size(); i++) {
        if (i == geometry || i == id || isCovering(i) || skipped.contains(i)) {
          continue;
        }
        put(properties, columns.get(i).name(), values[i][row]);
      }
      action.accept(features.feature(ownId == null ? null : ownId.toString(), geom, properties));
    }
  }

  private static void put(ObjectNode out, String name, Object v) {
    if (v == null) {
      out.putNull(name);
    } else if (v instanceof Long l) {
      out.put(name, l);
    } else if (v instanceof Double d) {
      out.put(name, d);
    } else if (v instanceof BigDecimal d) {
      out.put(name, d);
    } else if (v instanceof Boolean b) {
      out.put(name, b);
    } else if (v instanceof String s) {
      out.put(name, s);
    } else if (v instanceof byte[] b) {
      out.put(name, HexFormat.of().formatHex(b));
    } else {
      out.put(name, v.toString());
    }
  }
}
