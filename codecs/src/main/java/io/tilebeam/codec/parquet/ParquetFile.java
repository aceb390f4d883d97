package io.tilebeam.codec.parquet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Parquet file's footer, read by ranges: its columns (leaves of the schema, with their definition
 * and repetition levels), its row groups (each column chunk's place, codec and statistics) and its
 * key-value metadata. {@link ColumnChunkReader} reads a chunk's values.
 */
public final class ParquetFile {

  /** Physical types, by Parquet's numbers. */
  public static final int BOOLEAN = 0;

  /** 32-bit integers. */
  public static final int INT32 = 1;

  /** 64-bit integers. */
  public static final int INT64 = 2;

  /** Legacy 96-bit timestamps. */
  public static final int INT96 = 3;

  /** 32-bit floats. */
  public static final int FLOAT = 4;

  /** 64-bit floats. */
  public static final int DOUBLE = 5;

  /** Byte strings of any length. */
  public static final int BYTE_ARRAY = 6;

  /** Byte strings of one length. */
  public static final int FIXED_LEN_BYTE_ARRAY = 7;

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /** The largest footer read: a file of many row groups and columns has one of a few MB. */
  private static final int MAX_FOOTER = 64 << 20;

  /**
   * The most rows a row group may hold: a row group is decoded whole, so this bounds what one read
   * holds. Writers' defaults are far below it (DuckDB 122,880 rows, GDAL 65,536, Arrow 1,048,576).
   */
  public static final long MOST_ROWS_PER_GROUP = 1L << 24;

  /** The deepest schema read: real ones nest a few levels (a list in a struct in a list...). */
  public static final int MOST_NESTING = 64;

  /** Reads bytes of the file. */
  public interface Ranges {
    /** {@code length} bytes at {@code offset}. */
    byte[] read(long offset, int length) throws IOException;

    /** The file's size. */
    long size() throws IOException;
  }

  /**
   * A leaf column.
   *
   * @param path its path in the schema (one name for a top-level column)
   * @param type its physical type
   * @param typeLength the length of a fixed-length byte array
   * @param maxDefinition its maximum definition level (optional ancestors and itself)
   * @param maxRepetition its maximum repetition level (0 unless inside a list or map)
   * @param logical what its values mean: {@code STRING}, {@code DECIMAL(p,s)}, {@code DATE}, {@code
   *     TIMESTAMP_MILLIS}, {@code TIMESTAMP_MICROS}, {@code TIMESTAMP_NANOS}, {@code INT(8)}…,
   *     {@code JSON}, or null
   * @param scale a decimal's scale
   */
  public record Column(
      List<String> path,
      int type,
      int typeLength,
      int maxDefinition,
      int maxRepetition,
      String logical,
      int scale) {

    /** The dotted path. */
    public String name() {
      return String.join(".", path);
    }
  }

  /**
   * One column's part of a row group.
   *
   * @param column the column
   * @param codec 0 none, 1 snappy, 2 gzip, 6 zstd, …
   * @param encodings the encodings its pages use, values and levels
   * @param start the first byte (of its dictionary page, if any)
   * @param length its bytes
   * @param values how many values, nulls included
   * @param min its smallest value as the statistics give it (plain encoding), or null
   * @param max its largest value, or null
   */
  public record Chunk(
      Column column,
      int codec,
      List<Integer> encodings,
      long start,
      long length,
      long values,
      byte[] min,
      byte[] max) {}

  /**
   * A row group.
   *
   * @param rows its rows
   * @param chunks one chunk per column, in column order
   */
  public record RowGroup(long rows, List<Chunk> chunks) {}

  private final Ranges file;
  private final List<Column> columns;
  private final List<RowGroup> rowGroups;
  private final Map<String, String> metadata;
  private final long rows;

  private ParquetFile(
      Ranges file,
      List<Column> columns,
      List<RowGroup> rowGroups,
      Map<String, String> metadata,
      long rows) {
    this.file = file;
    this.columns = columns;
    this.rowGroups = rowGroups;
    this.metadata = metadata;
    this.rows = rows;
  }

  /**
   * Reads the footer. Every count and position it states is checked before it is used: chunks must
   * lie in the file, a flat column must hold one value per row of its row group, row groups must
   * add up to the file's rows and hold at most {@link #MOST_ROWS_PER_GROUP}, and the schema may
   * nest at most {@link #MOST_NESTING} levels.
   *
   * @throws IOException when the file cannot be read or is not a whole Parquet file, naming what is
   *     wrong
   */
  public static ParquetFile open(Ranges file) throws IOException {
    long size = file.size();
    if (size < 12) {
      throw new IOException("not a Parquet file: " + size + " bytes");
    }
    byte[] tail = file.read(size - 8, 8);
    if (!java.util.Arrays.equals(MAGIC, 0, 4, tail, 4, 8)) {
      throw new IOException("not a Parquet file (or cut short): it does not end with PAR1");
    }
    long footerLength =
        (tail[0] & 0xffL)
            | (tail[1] & 0xffL) << 8
            | (tail[2] & 0xffL) << 16
            | (tail[3] & 0xffL) << 24;
    if (footerLength <= 0 || footerLength > size - 12 || footerLength > MAX_FOOTER) {
      throw new IOException("the Parquet footer length " + footerLength + " does not fit the file");
    }
    byte[] footer = file.read(size - 8 - footerLength, (int) footerLength);
    Thrift.Struct meta = new Thrift.Reader(footer, 0, footer.length).struct();
    List<Column> columns = columns(meta.structs(2));
    List<RowGroup> groups = new ArrayList<>();
    long total = 0;
    for (Thrift.Struct g : meta.structs(4)) {
      RowGroup group = rowGroup(g, groups.size(), columns, size);
      total += group.rows();
      groups.add(group);
    }
    long declared = meta.i64(3, 0);
    if (declared != total) {
      throw new IOException(
          "the file says it holds " + declared + " rows but its row groups hold " + total);
    }
    Map<String, String> kv = new LinkedHashMap<>();
    for (Thrift.Struct e : meta.structs(5)) {
      kv.put(e.string(1), e.string(2));
    }
    return new ParquetFile(file, columns, groups, kv, total);
  }

  /** One row group of the footer, checked against the columns and the file's size. */
  private static RowGroup rowGroup(Thrift.Struct g, int index, List<Column> columns, long size)
      throws IOException {
    String which = "row group " + index;
    long rows = g.i64(3, -1);
    if (rows < 0 || rows > MOST_ROWS_PER_GROUP) {
      throw new IOException(
          which
              + " says it holds "
              + rows
              + " rows; tilebeam reads row groups of up to "
              + MOST_ROWS_PER_GROUP
              + " (write it with smaller row groups)");
    }
    List<Thrift.Struct> chunks = g.structs(1);
    if (chunks.size() != columns.size()) {
      throw new IOException(
          which + " has " + chunks.size() + " column chunks for " + columns.size() + " columns");
    }
    List<Chunk> out = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      Column column = columns.get(i);
      Thrift.Struct cc = chunks.get(i);
      if (cc.string(1) != null) {
        throw new IOException("column chunks in other files are not read");
      }
      Thrift.Struct m = cc.struct(3);
      if (m == null) {
        throw new IOException(which + ": column " + column.name() + " has no chunk metadata");
      }
      long data = m.i64(9, -1);
      long dict = m.i64(11, -1);
      long start = dict > 0 && dict < data ? dict : data;
      long length = m.i64(7, -1);
      // Compared without adding: offsets near 2^63 must not wrap into the file.
      if (start < 4 || length < 0 || start > size || length > size - start) {
        throw new IOException(
            which + ": column " + column.name() + " has a chunk outside the file");
      }
      long values = m.i64(5, -1);
      // A flat column holds one value (or null) per row; a list more, or none for empty lists.
      if (column.maxRepetition() == 0 ? values != rows : values < 0) {
        throw new IOException(
            which
                + " says it holds "
                + rows
                + " rows but its column "
                + column.name()
                + " holds "
                + values
                + " values");
      }
      Thrift.Struct stats = m.struct(12);
      byte[] min = stats == null ? null : first(stats.binary(6), stats.binary(2));
      byte[] max = stats == null ? null : first(stats.binary(5), stats.binary(1));
      List<Integer> encodings = new ArrayList<>();
      for (long e : m.integers(2)) {
        encodings.add((int) e);
      }
      out.add(
          new Chunk(column, m.i32(4, 0), List.copyOf(encodings), start, length, values, min, max));
    }
    return new RowGroup(rows, out);
  }

  private static byte[] first(byte[] a, byte[] b) {
    return a != null ? a : b;
  }

  /** The leaves of the schema (a depth-first list whose groups give their children's count). */
  private static List<Column> columns(List<Thrift.Struct> schema) throws IOException {
    if (schema.isEmpty()) {
      throw new IOException("the Parquet schema is empty");
    }
    List<Column> out = new ArrayList<>();
    int[] next = {1};
    int children = schema.get(0).i32(5, 0);
    for (int i = 0; i < children; i++) {
      walk(schema, next, new ArrayList<>(), 0, 0, out);
    }
    if (next[0] != schema.size()) {
      throw new IOException(
          "the Parquet schema lists " + schema.size() + " elements but its groups hold " + next[0]);
    }
    return out;
  }

  private static void walk(
      List<Thrift.Struct> schema,
      int[] next,
      List<String> parent,
      int def,
      int rep,
      List<Column> out)
      throws IOException {
    if (next[0] >= schema.size()) {
      throw new IOException("the Parquet schema ends inside a group");
    }
    if (parent.size() >= MOST_NESTING) {
      throw new IOException(
          "the Parquet schema nests deeper than "
              + MOST_NESTING
              + " levels (at "
              + parent.get(0)
              + ")");
    }
    Thrift.Struct e = schema.get(next[0]++);
    List<String> path = new ArrayList<>(parent);
    String name = e.string(4);
    if (name == null) {
      throw new IOException("the Parquet schema has an element without a name");
    }
    path.add(name);
    int repetition = e.i32(3, 0);
    int d = def + (repetition == 0 ? 0 : 1);
    int r = rep + (repetition == 2 ? 1 : 0);
    int children = e.i32(5, 0);
    if (children < 0 || children > schema.size() - next[0]) {
      throw new IOException(
          "the Parquet schema's group "
              + String.join(".", path)
              + " claims "
              + children
              + " children");
    }
    if (children > 0) {
      for (int i = 0; i < children; i++) {
        walk(schema, next, path, d, r, out);
      }
      return;
    }
    out.add(
        new Column(List.copyOf(path), e.i32(1, -1), e.i32(2, 0), d, r, logical(e), e.i32(7, 0)));
  }

  /** What a leaf's values mean, from its logical type or its older converted type. */
  private static String logical(Thrift.Struct e) throws IOException {
    Thrift.Struct l = e.struct(10);
    if (l != null) {
      if (l.has(1) || l.has(4)) {
        return "STRING"; // STRING, ENUM
      }
      if (l.has(5)) {
        Thrift.Struct dec = l.struct(5);
        return "DECIMAL(" + dec.i32(2, 0) + "," + dec.i32(1, 0) + ")";
      }
      if (l.has(6)) {
        return "DATE";
      }
      if (l.has(8)) {
        Thrift.Struct ts = l.struct(8);
        Thrift.Struct unit = ts.struct(2);
        String u =
            unit == null ? "MILLIS" : unit.has(1) ? "MILLIS" : unit.has(2) ? "MICROS" : "NANOS";
        return "TIMESTAMP_" + u;
      }
      if (l.has(10)) {
        Thrift.Struct in = l.struct(10);
        return (in.bool(2, true) ? "INT(" : "UINT(") + in.i32(1, 0) + ")";
      }
      if (l.has(12)) {
        return "JSON";
      }
    }
    return switch (e.i32(6, -1)) {
      case 0, 4 -> "STRING"; // UTF8, ENUM
      case 5 -> "DECIMAL(" + e.i32(8, 0) + "," + e.i32(7, 0) + ")";
      case 6 -> "DATE";
      case 9 -> "TIMESTAMP_MILLIS";
      case 10 -> "TIMESTAMP_MICROS";
      case 11, 12, 13, 14 -> "UINT(" + (8 << (e.i32(6, -1) - 11)) + ")";
      case 15, 16, 17, 18 -> "INT(" + (8 << (e.i32(6, -1) - 15)) + ")";
      case 19 -> "JSON";
      default -> null;
    };
  }

  /** The leaf columns, in schema order. */
  public List<Column> columns() {
    return columns;
  }

  /** The row groups, in file order. */
  public List<RowGroup> rowGroups() {
    return rowGroups;
  }

  /** The file's key-value metadata (GeoParquet's {@code geo} among them). */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The rows of all row groups. */
  public long rows() {
    return rows;
  }

  /**
   * The values of one chunk, row by row, null where a row has none.
   *
   * @throws CorruptParquetException when its bytes cannot be decoded
   * @throws IOException when the chunk cannot be read
   */
  public Object[] values(Chunk chunk) throws IOException {
    if (chunk.length() > Integer.MAX_VALUE - 16) {
      throw new IOException(
          "column " + chunk.column().name() + " has a chunk of " + chunk.length() + " bytes");
    }
    byte[] bytes = file.read(chunk.start(), (int) chunk.length());
    try {
      return new ColumnChunkReader(chunk, bytes).read();
    } catch (IOException | RuntimeException e) {
      // Decoding only: the bytes are in memory, so whatever fails here is the file's fault.
      throw new CorruptParquetException(e.getMessage(), e);
    }
  }
}
