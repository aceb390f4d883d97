package io.tilebeam.io.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.zip.GZIPInputStream;

/**
 * Decodes one column chunk of a flat column (no repetition) into a value per row: its pages (v1 and
 * v2, a dictionary page first when there is one), uncompressed, Snappy or gzip, with PLAIN,
 * dictionary (PLAIN_DICTIONARY, RLE_DICTIONARY) and, for booleans, RLE values. Values are {@code
 * Boolean}, {@code Long}, {@code Double}, {@code BigDecimal}, {@code String} (strings, dates and
 * timestamps as ISO text) or {@code byte[]}; null where a row has none.
 */
final class ColumnChunkReader {

  private static final int PLAIN = 0;
  private static final int PLAIN_DICTIONARY = 2;
  private static final int RLE = 3;
  private static final int RLE_DICTIONARY = 8;

  private static final String[] CODECS = {
    "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"
  };

  private static final String[] ENCODINGS = {
    "PLAIN",
    "GROUP_VAR_INT",
    "PLAIN_DICTIONARY",
    "RLE",
    "BIT_PACKED",
    "DELTA_BINARY_PACKED",
    "DELTA_LENGTH_BYTE_ARRAY",
    "DELTA_BYTE_ARRAY",
    "RLE_DICTIONARY",
    "BYTE_STREAM_SPLIT"
  };

  private final ParquetFile.Chunk chunk;
  private final ParquetFile.Column column;
  private final byte[] bytes;
  private Object[] dictionary;

  ColumnChunkReader(ParquetFile.Chunk chunk, byte[] bytes) {
    this.chunk = chunk;
    this.column = chunk.column();
    this.bytes = bytes;
  }

  /** Why this reader cannot read the column, or null when it can. */
  static String refuses(ParquetFile.Column c) {
    if (c.maxRepetition() > 0) {
      return "column " + c.name() + " is a list or map (repeated values are not read)";
    }
    if (c.type() == ParquetFile.INT96) {
      return "column " + c.name() + " holds INT96 timestamps (write them as INT64 timestamps)";
    }
    return null;
  }

  /**
   * Why the reader cannot read chunk {@code c}'s pages, known from the footer (its codec, its
   * encodings), or null when it can.
   */
  static String refusesPages(ParquetFile.Chunk c) {
    if (c.codec() > 2) {
      return "column "
          + c.column().name()
          + " is compressed with "
          + (c.codec() < CODECS.length ? CODECS[c.codec()] : "codec " + c.codec())
          + "; tilebeam reads uncompressed, SNAPPY and GZIP Parquet";
    }
    for (int e : c.encodings()) {
      if (e != PLAIN && e != PLAIN_DICTIONARY && e != RLE && e != RLE_DICTIONARY && e != 4) {
        return "column "
            + c.column().name()
            + " is encoded "
            + (e < ENCODINGS.length ? ENCODINGS[e] : "as " + e)
            + "; tilebeam reads PLAIN and dictionary-encoded Parquet";
      }
    }
    return null;
  }

  Object[] read() throws IOException {
    String refused = refuses(column);
    if (refused != null) {
      throw new IOException(refused);
    }
    if (chunk.values() > Integer.MAX_VALUE - 16) {
      throw new IOException("column " + column.name() + " has too many values in one row group");
    }
    Object[] out = new Object[(int) chunk.values()];
    int filled = 0;
    int pos = 0;
    while (filled < out.length) {
      if (pos >= bytes.length) {
        throw new IOException(
            "column " + column.name() + ": pages end after " + filled + " of " + out.length);
      }
      Thrift.Reader r = new Thrift.Reader(bytes, pos, bytes.length);
      Thrift.Struct header = r.struct();
      int start = r.position();
      int compressed = header.i32(3, -1);
      int uncompressed = header.i32(2, -1);
      if (compressed < 0 || start + compressed > bytes.length || uncompressed < 0) {
        throw new IOException("column " + column.name() + ": a page runs past its chunk");
      }
      pos = start + compressed;
      switch (header.i32(1, -1)) {
        case 2 -> dictionary(header.struct(7), decompress(start, compressed, uncompressed));
        case 0 ->
            filled =
                pageV1(header.struct(5), decompress(start, compressed, uncompressed), out, filled);
        case 3 -> filled = pageV2(header.struct(8), start, compressed, uncompressed, out, filled);
        default -> {
          // Index pages and others carry no values.
        }
      }
    }
    return out;
  }

  private byte[] decompress(int from, int length, int uncompressed) throws IOException {
    byte[] data =
        switch (chunk.codec()) {
          case 0 -> java.util.Arrays.copyOfRange(bytes, from, from + length);
          case 1 -> Snappy.decompress(bytes, from, from + length);
          case 2 -> {
            try (GZIPInputStream in =
                new GZIPInputStream(new ByteArrayInputStream(bytes, from, length))) {
              yield in.readNBytes(uncompressed + 1);
            }
          }
          default ->
              throw new IOException(
                  "column "
                      + column.name()
                      + " is compressed with "
                      + (chunk.codec() < CODECS.length
                          ? CODECS[chunk.codec()]
                          : "codec " + chunk.codec())
                      + "; tilebeam reads uncompressed, SNAPPY and GZIP Parquet");
        };
    if (data.length != uncompressed) {
      throw new IOException(
          "column "
              + column.name()
              + ": a page decompresses to "
              + data.length
              + " bytes, not "
              + uncompressed);
    }
    return data;
  }

  private void dictionary(Thrift.Struct h, byte[] data) throws IOException {
    int n = h == null ? 0 : h.i32(1, 0);
    dictionary = new Object[n];
    plain(data, 0, data.length, n, dictionary, 0);
  }

  private int pageV1(Thrift.Struct h, byte[] data, Object[] out, int filled) throws IOException {
    int n = h.i32(1, 0);
    int pos = 0;
    int[] defs = null;
    if (column.maxDefinition() > 0) {
      if (h.i32(3, RLE) != RLE) {
        throw new IOException("column " + column.name() + ": definition levels not RLE-encoded");
      }
      int length = le32(data, pos);
      pos += 4;
      defs = new int[n];
      Levels.decode(data, pos, pos + length, Levels.bitWidth(column.maxDefinition()), defs, n);
      pos += length;
    }
    return values(h.i32(2, PLAIN), data, pos, data.length, n, defs, out, filled);
  }

  private int pageV2(
      Thrift.Struct h, int start, int compressed, int uncompressed, Object[] out, int filled)
      throws IOException {
    int n = h.i32(1, 0);
    int defLength = h.i32(5, 0);
    int repLength = h.i32(6, 0);
    int levels = defLength + repLength;
    int[] defs = null;
    if (column.maxDefinition() > 0) {
      defs = new int[n];
      int from = start + repLength;
      Levels.decode(
          bytes, from, from + defLength, Levels.bitWidth(column.maxDefinition()), defs, n);
    }
    byte[] data =
        h.bool(7, true)
            ? decompress(start + levels, compressed - levels, uncompressed - levels)
            : java.util.Arrays.copyOfRange(bytes, start + levels, start + compressed);
    return values(h.i32(4, PLAIN), data, 0, data.length, n, defs, out, filled);
  }

  /** The page's non-null values placed by their definition levels. */
  private int values(
      int encoding, byte[] data, int from, int to, int n, int[] defs, Object[] out, int filled)
      throws IOException {
    int present = 0;
    for (int i = 0; i < n; i++) {
      if (defs == null || defs[i] == column.maxDefinition()) {
        present++;
      }
    }
    if (filled + n > out.length) {
      throw new IOException("column " + column.name() + ": pages hold more values than the chunk");
    }
    Object[] decoded = new Object[present];
    switch (encoding) {
      case PLAIN -> plain(data, from, to, present, decoded, 0);
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
        if (dictionary == null) {
          throw new IOException(
              "column " + column.name() + ": dictionary indices without a dictionary");
        }
        int[] indices = new int[present];
        if (present > 0) {
          Levels.decode(data, from + 1, to, data[from] & 0xff, indices, present);
        }
        for (int i = 0; i < present; i++) {
          if (indices[i] < 0 || indices[i] >= dictionary.length) {
            throw new IOException("column " + column.name() + ": dictionary index out of range");
          }
          decoded[i] = dictionary[indices[i]];
        }
      }
      case RLE -> {
        if (column.type() != ParquetFile.BOOLEAN) {
          throw new IOException("column " + column.name() + ": RLE values of a non-boolean");
        }
        int[] bits = new int[present];
        int length = le32(data, from);
        Levels.decode(data, from + 4, from + 4 + length, 1, bits, present);
        for (int i = 0; i < present; i++) {
          decoded[i] = bits[i] == 1;
        }
      }
      default ->
          throw new IOException(
              "column "
                  + column.name()
                  + " is encoded "
                  + (encoding < ENCODINGS.length ? ENCODINGS[encoding] : "as " + encoding)
                  + "; tilebeam reads PLAIN and dictionary-encoded Parquet");
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
      out[filled + i] = defs == null || defs[i] == column.maxDefinition() ? decoded[k++] : null;
    }
    return filled + n;
  }

  /** {@code n} PLAIN-encoded values of the column's type from {@code data[from, to)}. */
  private void plain(byte[] data, int from, int to, int n, Object[] out, int at)
      throws IOException {
    int pos = from;
    for (int i = 0; i < n; i++) {
      switch (column.type()) {
        case ParquetFile.BOOLEAN -> {
          int byteAt = from + i / 8; // bit-packed, least significant first
          if (byteAt >= to) {
            throw truncated();
          }
          out[at + i] = ((data[byteAt] >>> (i % 8)) & 1) == 1;
          continue;
        }
        case ParquetFile.INT32 -> {
          need(pos, 4, to);
          out[at + i] = integer(le32(data, pos));
          pos += 4;
        }
        case ParquetFile.INT64 -> {
          need(pos, 8, to);
          out[at + i] = integer(le64(data, pos));
          pos += 8;
        }
        case ParquetFile.FLOAT -> {
          need(pos, 4, to);
          float f = Float.intBitsToFloat(le32(data, pos));
          // The float's shortest decimal, not its binary expansion as a double.
          out[at + i] = Double.parseDouble(Float.toString(f));
          pos += 4;
        }
        case ParquetFile.DOUBLE -> {
          need(pos, 8, to);
          out[at + i] = Double.longBitsToDouble(le64(data, pos));
          pos += 8;
        }
        case ParquetFile.BYTE_ARRAY -> {
          need(pos, 4, to);
          int length = le32(data, pos);
          pos += 4;
          if (length < 0) {
            throw truncated();
          }
          need(pos, length, to);
          out[at + i] = bytesValue(java.util.Arrays.copyOfRange(data, pos, pos + length));
          pos += length;
        }
        case ParquetFile.FIXED_LEN_BYTE_ARRAY -> {
          int length = column.typeLength();
          need(pos, length, to);
          out[at + i] = bytesValue(java.util.Arrays.copyOfRange(data, pos, pos + length));
          pos += length;
        }
        default -> throw new IOException("column " + column.name() + ": unreadable type");
      }
    }
  }

  /** An integer as its logical type says: a decimal, a date, a timestamp, or a number. */
  private Object integer(long v) {
    String l = column.logical();
    if (l == null) {
      return v;
    }
    if (l.startsWith("DECIMAL")) {
      return BigDecimal.valueOf(v, column.scale());
    }
    if (l.equals("DATE")) {
      return LocalDate.ofEpochDay(v).toString();
    }
    if (l.startsWith("TIMESTAMP_")) {
      Instant t =
          switch (l) {
            case "TIMESTAMP_MILLIS" -> Instant.ofEpochMilli(v);
            case "TIMESTAMP_MICROS" ->
                Instant.ofEpochSecond(
                    Math.floorDiv(v, 1_000_000L), Math.floorMod(v, 1_000_000L) * 1000);
            default ->
                Instant.ofEpochSecond(
                    Math.floorDiv(v, 1_000_000_000L), Math.floorMod(v, 1_000_000_000L));
          };
      return t.toString();
    }
    if (l.equals("UINT(32)")) {
      return v & 0xffffffffL;
    }
    return v;
  }

  private Object bytesValue(byte[] b) {
    String l = column.logical();
    if (l == null) {
      return b;
    }
    if (l.equals("STRING") || l.equals("JSON")) {
      return new String(b, StandardCharsets.UTF_8);
    }
    if (l.startsWith("DECIMAL")) {
      return new BigDecimal(new BigInteger(b), column.scale());
    }
    return b;
  }

  private void need(int pos, int n, int to) throws IOException {
    if (pos + n > to) {
      throw truncated();
    }
  }

  private IOException truncated() {
    return new IOException("column " + column.name() + ": values end before the page says");
  }

  private static int le32(byte[] b, int p) {
    return (b[p] & 0xff)
        | (b[p + 1] & 0xff) << 8
        | (b[p + 2] & 0xff) << 16
        | (b[p + 3] & 0xff) << 24;
  }

  private static long le64(byte[] b, int p) {
    return (le32(b, p) & 0xffffffffL) | (long) le32(b, p + 4) << 32;
  }
}
