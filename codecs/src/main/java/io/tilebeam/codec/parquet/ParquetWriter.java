package io.tilebeam.codec.parquet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a small Parquet file in one row group: each column one PLAIN data page (v1), uncompressed,
 * optional columns with RLE/bit-packed definition levels, double columns with min/max statistics
 * (so that readers can skip by a bbox covering column), and key-value metadata. Enough for one
 * tile's rows; the same columns give the same bytes.
 */
public final class ParquetWriter {

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /**
   * A column of the file: a leaf at the top level, or a leaf of a required group ({@code group}
   * non-null, one level only).
   *
   * @param group the group's name, or null for a top-level column
   * @param name the column's name
   * @param type its physical type ({@link ParquetFile#BOOLEAN}, {@link ParquetFile#INT64}, {@link
   *     ParquetFile#DOUBLE} or {@link ParquetFile#BYTE_ARRAY})
   * @param logical {@code STRING}, {@code JSON} or null
   * @param optional whether values may be null
   * @param values one value a row: {@code Boolean}, {@code Long}, {@code Double}, {@code String} or
   *     {@code byte[]}, null where the row has none
   */
  public record Column(
      String group, String name, int type, String logical, boolean optional, Object[] values) {}

  private ParquetWriter() {}

  /** The file of {@code rows} rows of {@code columns} (groups' leaves next to each other). */
  public static byte[] write(List<Column> columns, long rows, Map<String, String> metadata) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    List<Object> chunks = new ArrayList<>();
    long total = 0;
    for (Column c : columns) {
      if (c.values().length != rows) {
        throw new IllegalArgumentException(
            "column " + c.name() + " has " + c.values().length + " values for " + rows + " rows");
      }
      byte[] page = page(c);
      Thrift.Struct header =
          new Thrift.Struct()
              .put(1, i32(0))
              .put(2, i32(page.length))
              .put(3, i32(page.length))
              .put(
                  5,
                  new Thrift.Struct()
                      .put(1, i32(c.values().length))
                      .put(2, i32(0))
                      .put(3, i32(3))
                      .put(4, i32(3)));
      byte[] headerBytes = new Thrift.Writer().struct(header).bytes();
      long offset = out.size();
      out.writeBytes(headerBytes);
      out.writeBytes(page);
      long size = headerBytes.length + page.length;
      total += size;
      List<Object> path = c.group() == null ? List.of(c.name()) : List.of(c.group(), c.name());
      Thrift.Struct meta =
          new Thrift.Struct()
              .put(1, i32(c.type()))
              .put(2, List.of(i32(0), i32(3)))
              .put(3, path)
              .put(4, i32(0))
              .put(5, (long) c.values().length)
              .put(6, size)
              .put(7, size)
              .put(9, offset)
              .put(12, statistics(c));
      chunks.add(new Thrift.Struct().put(2, offset).put(3, meta));
    }
    List<Object> kv = new ArrayList<>();
    metadata.forEach((k, v) -> kv.add(new Thrift.Struct().put(1, k).put(2, v)));
    Thrift.Struct file =
        new Thrift.Struct()
            .put(1, i32(1))
            .put(2, schema(columns))
            .put(3, rows)
            .put(4, List.of(new Thrift.Struct().put(1, chunks).put(2, total).put(3, rows)))
            .put(5, kv.isEmpty() ? null : kv)
            .put(6, "tilebeam");
    byte[] footer = new Thrift.Writer().struct(file).bytes();
    out.writeBytes(footer);
    out.writeBytes(
        ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length).array());
    out.writeBytes(MAGIC);
    return out.toByteArray();
  }

  private static Thrift.I32Value i32(int v) {
    return new Thrift.I32Value(v);
  }

  /** The schema: the root, then each column or group with its leaves, depth first. */
  private static List<Object> schema(List<Column> columns) {
    List<Object> out = new ArrayList<>();
    List<Object> top = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      if (c.group() == null) {
        top.add(leaf(c));
        continue;
      }
      List<Object> leaves = new ArrayList<>();
      int j = i;
      while (j < columns.size() && c.group().equals(columns.get(j).group())) {
        leaves.add(leaf(columns.get(j)));
        j++;
      }
      top.add(new Thrift.Struct().put(3, i32(0)).put(4, c.group()).put(5, i32(leaves.size())));
      top.addAll(leaves);
      i = j - 1;
    }
    long children =
        columns.stream().map(c -> c.group() == null ? c.name() : c.group()).distinct().count();
    out.add(new Thrift.Struct().put(4, "schema").put(5, i32((int) children)));
    out.addAll(top);
    return out;
  }

  private static Thrift.Struct leaf(Column c) {
    Thrift.Struct s =
        new Thrift.Struct()
            .put(1, i32(c.type()))
            .put(3, i32(c.optional() ? 1 : 0))
            .put(4, c.name());
    if ("STRING".equals(c.logical())) {
      s.put(6, i32(0)).put(10, new Thrift.Struct().put(1, new Thrift.Struct()));
    } else if ("JSON".equals(c.logical())) {
      s.put(6, i32(19)).put(10, new Thrift.Struct().put(12, new Thrift.Struct()));
    }
    return s;
  }

  /** Min, max and null count of a double column; the null count alone for the others. */
  private static Thrift.Struct statistics(Column c) {
    long nulls = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (Object v : c.values()) {
      if (v == null) {
        nulls++;
      } else if (v instanceof Double d && !d.isNaN()) {
        min = Math.min(min, d);
        max = Math.max(max, d);
      }
    }
    Thrift.Struct s = new Thrift.Struct().put(3, nulls);
    if (c.type() == ParquetFile.DOUBLE && min <= max) {
      s.put(5, le64(Double.doubleToLongBits(max))).put(6, le64(Double.doubleToLongBits(min)));
    }
    return s;
  }

  /** The page: definition levels (optional columns), then the present values, PLAIN. */
  private static byte[] page(Column c) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Object[] values = c.values();
    if (c.optional()) {
      byte[] levels = definitionLevels(values);
      out.writeBytes(
          ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(levels.length).array());
      out.writeBytes(levels);
    }
    if (c.type() == ParquetFile.BOOLEAN) {
      int bit = 0;
      int current = 0;
      for (Object v : values) {
        if (v == null) {
          continue;
        }
        if ((Boolean) v) {
          current |= 1 << bit;
        }
        if (++bit == 8) {
          out.write(current);
          bit = 0;
          current = 0;
        }
      }
      if (bit > 0) {
        out.write(current);
      }
      return out.toByteArray();
    }
    for (Object v : values) {
      if (v == null) {
        continue;
      }
      switch (c.type()) {
        case ParquetFile.INT64 -> out.writeBytes(le64((Long) v));
        case ParquetFile.DOUBLE -> out.writeBytes(le64(Double.doubleToLongBits((Double) v)));
        case ParquetFile.BYTE_ARRAY -> {
          byte[] b = v instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) v;
          out.writeBytes(
              ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length).array());
          out.writeBytes(b);
        }
        default -> throw new IllegalArgumentException("unwritten type " + c.type());
      }
    }
    return out.toByteArray();
  }

  /** Levels of 1 bit: bit-packed groups of eight, as one run. */
  private static byte[] definitionLevels(Object[] values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int groups = (values.length + 7) / 8;
    long header = ((long) groups << 1) | 1;
    while ((header & ~0x7fL) != 0) {
      out.write((int) ((header & 0x7f) | 0x80));
      header >>>= 7;
    }
    out.write((int) header);
    for (int g = 0; g < groups; g++) {
      int b = 0;
      for (int i = 0; i < 8; i++) {
        int at = g * 8 + i;
        if (at < values.length && values[at] != null) {
          b |= 1 << i;
        }
      }
      out.write(b);
    }
    return out.toByteArray();
  }

  private static byte[] le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }
}
