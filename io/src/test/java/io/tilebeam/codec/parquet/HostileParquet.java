package io.tilebeam.codec.parquet;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * GeoParquet files whose headers lie, for the tests of what tilebeam does with hostile files. Each
 * file has two row groups of points with a bbox covering column and its statistics: row group 0
 * (good) around 60°W 10°N, row group 1 around 100°E 10°N, which a case damages; so a reader that
 * contains the damage publishes the tiles of the first and fails (or refuses) only the second.
 *
 * <p>Pages are written as the Parquet format says (Thrift compact headers, PLAIN values,
 * uncompressed unless a case says otherwise), with hooks to change any header field or page.
 */
public final class HostileParquet {

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final int ROWS = 20;

  private HostileParquet() {}

  /** The geometry column's chunk of a row group: its codec and pages, each a header and a body. */
  record GeometryChunk(int codec, List<Thrift.Struct> headers, List<byte[]> bodies) {}

  /**
   * A file whose geometry chunk of row group 1 is {@code damaged}, its footer then {@code edit}ed.
   */
  static byte[] file(GeometryChunk damaged, Consumer<Thrift.Struct> edit) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    List<Object> groups = new ArrayList<>();
    for (int g = 0; g < 2; g++) {
      double x0 = g == 0 ? -60 : 100;
      double y0 = 10;
      List<Object> chunks = new ArrayList<>();
      GeometryChunk geometry = g == 1 && damaged != null ? damaged : plainGeometry(x0, y0);
      chunks.add(chunk(out, "geometry", null, ParquetFile.BYTE_ARRAY, geometry, null, null));
      double[][] box = {{x0, x0 + ROWS - 1}, {y0, y0 + ROWS - 1}};
      String[] names = {"xmin", "ymin", "xmax", "ymax"};
      for (int k = 0; k < 4; k++) {
        double[] range = box[k % 2];
        double[] values = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
          values[i] = range[0] + i;
        }
        chunks.add(
            chunk(
                out,
                "bbox",
                names[k],
                ParquetFile.DOUBLE,
                plainDoubles(values),
                range[0],
                range[1]));
      }
      groups.add(new Thrift.Struct().put(1, chunks).put(2, 0L).put(3, (long) ROWS));
    }
    List<Object> schema = new ArrayList<>();
    schema.add(new Thrift.Struct().put(4, "schema").put(5, i32(2)));
    schema.add(
        new Thrift.Struct().put(1, i32(ParquetFile.BYTE_ARRAY)).put(3, i32(0)).put(4, "geometry"));
    schema.add(new Thrift.Struct().put(3, i32(0)).put(4, "bbox").put(5, i32(4)));
    for (String n : new String[] {"xmin", "ymin", "xmax", "ymax"}) {
      schema.add(new Thrift.Struct().put(1, i32(ParquetFile.DOUBLE)).put(3, i32(0)).put(4, n));
    }
    String geo =
        "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":"
            + "{\"encoding\":\"WKB\",\"geometry_types\":[\"Point\"],\"covering\":{\"bbox\":"
            + "{\"xmin\":[\"bbox\",\"xmin\"],\"ymin\":[\"bbox\",\"ymin\"],"
            + "\"xmax\":[\"bbox\",\"xmax\"],\"ymax\":[\"bbox\",\"ymax\"]}}}}}";
    Thrift.Struct meta =
        new Thrift.Struct()
            .put(1, i32(1))
            .put(2, schema)
            .put(3, 2L * ROWS)
            .put(4, groups)
            .put(5, List.of(new Thrift.Struct().put(1, "geo").put(2, geo)))
            .put(6, "tilebeam hostile tests");
    if (edit != null) {
      edit.accept(meta);
    }
    byte[] footer = new Thrift.Writer().struct(meta).bytes();
    out.writeBytes(footer);
    out.writeBytes(
        ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.length).array());
    out.writeBytes(MAGIC);
    return out.toByteArray();
  }

  /** Writes a chunk's pages; returns its column chunk struct. */
  private static Thrift.Struct chunk(
      ByteArrayOutputStream out,
      String name,
      String leaf,
      int type,
      GeometryChunk pages,
      Double min,
      Double max) {
    long start = out.size();
    long values = 0;
    long dictionary = -1;
    long data = -1;
    for (int p = 0; p < pages.headers().size(); p++) {
      Thrift.Struct h = pages.headers().get(p);
      boolean isDictionary = h.fields.get(1) instanceof Thrift.I32Value t && t.value() == 2;
      if (isDictionary) {
        dictionary = out.size();
      } else if (data < 0) {
        data = out.size();
      }
      if (h.fields.get(5) instanceof Thrift.Struct v1
          && v1.fields.get(1) instanceof Thrift.I32Value n) {
        values += n.value();
      }
      out.writeBytes(new Thrift.Writer().struct(h).bytes());
      out.writeBytes(pages.bodies().get(p));
    }
    long size = out.size() - start;
    Thrift.Struct stats = new Thrift.Struct();
    if (min != null) {
      stats.put(5, le64(Double.doubleToLongBits(max))).put(6, le64(Double.doubleToLongBits(min)));
    }
    // A page header claiming more values than the rows does not change what the chunk says it
    // holds: the footer stays consistent, the lie is the page's.
    Thrift.Struct meta =
        new Thrift.Struct()
            .put(1, i32(type))
            .put(2, List.of(i32(0), i32(3), i32(8)))
            .put(3, leaf == null ? List.of(name) : List.of(name, leaf))
            .put(4, i32(pages.codec()))
            .put(5, Math.min(values, ROWS))
            .put(6, size)
            .put(7, size)
            .put(9, data)
            .put(11, dictionary >= 0 ? dictionary : null)
            .put(12, stats);
    return new Thrift.Struct().put(2, start).put(3, meta);
  }

  /** A PLAIN, uncompressed page of {@code n} values; {@code body} as the values are written. */
  static Thrift.Struct dataPage(int n, int uncompressed, int compressed, int encoding) {
    return new Thrift.Struct()
        .put(1, i32(0))
        .put(2, i32(uncompressed))
        .put(3, i32(compressed))
        .put(
            5,
            new Thrift.Struct().put(1, i32(n)).put(2, i32(encoding)).put(3, i32(3)).put(4, i32(3)));
  }

  /** The good geometry chunk of a row group: points from ({@code x0}, {@code y0}) on. */
  static GeometryChunk plainGeometry(double x0, double y0) {
    byte[] body = plainBinary(points(x0, y0));
    return new GeometryChunk(
        0, List.of(dataPage(ROWS, body.length, body.length, 0)), List.of(body));
  }

  /** The WKB of the row group's points. */
  static List<byte[]> points(double x0, double y0) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      out.add(point(x0 + i, y0 + i));
    }
    return out;
  }

  static byte[] point(double x, double y) {
    return ByteBuffer.allocate(21)
        .order(ByteOrder.LITTLE_ENDIAN)
        .put((byte) 1)
        .putInt(1)
        .putDouble(x)
        .putDouble(y)
        .array();
  }

  static byte[] plainBinary(List<byte[]> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] v : values) {
      out.writeBytes(
          ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v.length).array());
      out.writeBytes(v);
    }
    return out.toByteArray();
  }

  private static GeometryChunk plainDoubles(double[] values) {
    ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      b.putDouble(v);
    }
    byte[] body = b.array();
    return new GeometryChunk(
        0, List.of(dataPage(values.length, body.length, body.length, 0)), List.of(body));
  }

  static Thrift.I32Value i32(int v) {
    return new Thrift.I32Value(v);
  }

  private static byte[] le64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  /** The file undamaged: both row groups good. */
  public static byte[] good() {
    return file(null, null);
  }

  // The cases. Each damages row group 1 (or the footer) one way.

  /** Row group 1's geometry page is Snappy whose header (and page header) claim {@code bytes}. */
  public static byte[] snappyPageClaiming(long bytes) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long v = bytes;
    while ((v & ~0x7fL) != 0) {
      body.write((int) ((v & 0x7f) | 0x80));
      v >>>= 7;
    }
    body.write((int) v);
    body.writeBytes(new byte[] {0, 1, 2, 3}); // a literal tag and a little data
    byte[] b = body.toByteArray();
    return file(
        new GeometryChunk(
            1,
            List.of(dataPage(ROWS, (int) Math.min(bytes, Integer.MAX_VALUE), b.length, 0)),
            List.of(b)),
        null);
  }

  /**
   * Row group 1's geometry page is gzip that inflates to {@code bytes} zeros while its header says
   * it holds the good page's size.
   */
  public static byte[] gzipBomb(long bytes) {
    byte[] good = plainBinary(points(100, 10));
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    try (GZIPOutputStream gz =
        new GZIPOutputStream(z, 1 << 16) {
          {
            def.setLevel(Deflater.BEST_COMPRESSION);
          }
        }) {
      gz.write(good);
      byte[] zeros = new byte[1 << 20];
      for (long n = 0; n < bytes; n += zeros.length) {
        gz.write(zeros);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    byte[] b = z.toByteArray();
    return file(
        new GeometryChunk(2, List.of(dataPage(ROWS, good.length, b.length, 0)), List.of(b)), null);
  }

  /** Row group 1's geometry page header claims {@code values} values. */
  public static byte[] pageClaimingValues(int values) {
    byte[] body = plainBinary(points(100, 10));
    return file(
        new GeometryChunk(0, List.of(dataPage(values, body.length, body.length, 0)), List.of(body)),
        null);
  }

  /** Row group 1 and its column chunks claim {@code values} rows and values. */
  public static byte[] chunkClaimingValues(long values) {
    return file(
        null,
        meta -> {
          Thrift.Struct g = (Thrift.Struct) ((List<?>) meta.fields.get(4)).get(1);
          g.put(3, values);
          for (Object c : (List<?>) g.fields.get(1)) {
            ((Thrift.Struct) ((Thrift.Struct) c).fields.get(3)).put(5, values);
          }
          meta.put(3, ROWS + values);
        });
  }

  /** Row group 1 says it holds {@code rows} rows while its columns hold 20 values each. */
  public static byte[] rowCountDisagreeing(long rows) {
    return file(
        null,
        meta -> {
          ((Thrift.Struct) ((List<?>) meta.fields.get(4)).get(1)).put(3, rows);
          meta.put(3, ROWS + rows);
        });
  }

  /** A schema of {@code depth} groups nested one in another before its leaves. */
  public static byte[] nestedSchema(int depth) {
    return file(
        null,
        meta -> {
          List<Object> schema = new ArrayList<>();
          schema.add(new Thrift.Struct().put(4, "schema").put(5, i32(1)));
          for (int d = 0; d < depth; d++) {
            schema.add(new Thrift.Struct().put(3, i32(0)).put(4, "g" + d).put(5, i32(1)));
          }
          schema.add(
              new Thrift.Struct()
                  .put(1, i32(ParquetFile.BYTE_ARRAY))
                  .put(3, i32(0))
                  .put(4, "geometry"));
          meta.put(2, schema);
        });
  }

  /** Row group 1's bbox statistics are NaN. */
  public static byte[] nanStatistics() {
    return file(
        null,
        meta -> {
          Thrift.Struct g = (Thrift.Struct) ((List<?>) meta.fields.get(4)).get(1);
          Thrift.Struct xmin = (Thrift.Struct) ((List<?>) g.fields.get(1)).get(1);
          Thrift.Struct stats = (Thrift.Struct) ((Thrift.Struct) xmin.fields.get(3)).fields.get(12);
          stats.put(6, le64(Double.doubleToLongBits(Double.NaN)));
        });
  }

  /** Row group 1's row count is written as a string where Thrift's schema has an i64. */
  public static byte[] wrongThriftType() {
    return file(
        null, meta -> ((Thrift.Struct) ((List<?>) meta.fields.get(4)).get(1)).put(3, "twenty"));
  }

  /** Row group 1's geometry is dictionary-encoded, and an index points past its dictionary. */
  public static byte[] dictionaryIndexPast() {
    byte[] dictionary = plainBinary(points(100, 10).subList(0, 2));
    Thrift.Struct dictionaryHeader =
        new Thrift.Struct()
            .put(1, i32(2))
            .put(2, i32(dictionary.length))
            .put(3, i32(dictionary.length))
            .put(7, new Thrift.Struct().put(1, i32(2)).put(2, i32(0)));
    // Bit width 3, then one RLE run of 20 copies of index 5: the dictionary holds 2.
    byte[] indices = {3, (byte) (ROWS << 1), 5};
    return file(
        new GeometryChunk(
            0,
            List.of(dictionaryHeader, dataPage(ROWS, indices.length, indices.length, 8)),
            List.of(dictionary, indices)),
        null);
  }

  /** Row group 1's first geometry is a GeometryCollection nested {@code depth} deep. */
  public static byte[] deepWkb(int depth) {
    List<byte[]> values = points(100, 10);
    ByteBuffer b = ByteBuffer.allocate(9 * depth + 21).order(ByteOrder.LITTLE_ENDIAN);
    for (int d = 0; d < depth; d++) {
      b.put((byte) 1).putInt(7).putInt(1);
    }
    b.put(point(100, 10));
    values.set(0, b.array());
    byte[] body = plainBinary(values);
    return file(
        new GeometryChunk(0, List.of(dataPage(ROWS, body.length, body.length, 0)), List.of(body)),
        null);
  }
}
