package io.tilebeam.codec.parquet;

import io.tilebeam.codec.compress.Decompress;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Decodes one column chunk of a flat column (no repetition) into a value per row: its pages (v1 and
 * v2, a dictionary page first when there is one), uncompressed, Snappy, gzip, Brotli, ZSTD, LZ4 or
 * LZ4_RAW, with PLAIN, dictionary (PLAIN_DICTIONARY, RLE_DICTIONARY), DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and, for booleans, RLE values.
 * Values are {@code Boolean}, {@code Long}, {@code Double}, {@code BigDecimal}, {@code String}
 * (strings, dates and timestamps as ISO text) or {@code byte[]}; null where a row has none.
 *
 * <p>Every size a page header states is checked before it is allocated: a page decompresses to at
 * most {@link #MOST_PAGE_BYTES} and to no more than its codec can make of its compressed bytes, and
 * to exactly the size it declares; a page's values fit in what the chunk has left.
 */
final class ColumnChunkReader {

  private static final int PLAIN = 0;
  private static final int PLAIN_DICTIONARY = 2;
  private static final int RLE = 3;
  private static final int DELTA_BINARY_PACKED = 5;
  private static final int DELTA_LENGTH_BYTE_ARRAY = 6;
  private static final int DELTA_BYTE_ARRAY = 7;
  private static final int RLE_DICTIONARY = 8;
  private static final int BYTE_STREAM_SPLIT = 9;

  private static final int UNCOMPRESSED = 0;
  private static final int SNAPPY = 1;
  private static final int GZIP = 2;
  private static final int BROTLI = 4;
  private static final int LZ4 = 5;
  private static final int ZSTD = 6;
  private static final int LZ4_RAW = 7;

  /**
   * The most bytes one page may decompress to, whatever its header says: writers cut pages at about
   * 1 MB; a page holding one huge geometry is the largest real one.
   */
  static final int MOST_PAGE_BYTES = 256 << 20;

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

  /**
   * Why the column cannot become a property (a list or map, INT96 timestamps), or null when it can.
   */
  static String skips(ParquetFile.Column c) {
    if (c.maxRepetition() > 0) {
      return "a list or map";
    }
    if (c.type() == ParquetFile.INT96) {
      return "INT96 timestamps";
    }
    return null;
  }

  /**
   * Why the reader cannot read chunk {@code c}'s pages, known from the footer (its codec, its
   * encodings), or null when it can.
   */
  static String refusesPages(ParquetFile.Chunk c) {
    if (!readsCodec(c.codec())) {
      return "column " + c.column().name() + " is compressed with " + codecName(c.codec()) + READS;
    }
    for (int e : c.encodings()) {
      if (e < 0 || e >= ENCODINGS.length || e == 1) {
        return notRead(c.column(), e);
      }
    }
    return null;
  }

  /** Why values of {@code column} in {@code encoding} are not read. */
  private static String notRead(ParquetFile.Column column, int encoding) {
    return "column "
        + column.name()
        + " is encoded "
        + (encoding >= 0 && encoding < ENCODINGS.length ? ENCODINGS[encoding] : "as " + encoding)
        + "; tilebeam reads PLAIN, dictionary, RLE, delta and BYTE_STREAM_SPLIT encodings";
  }

  private static final String READS =
      "; tilebeam reads uncompressed, SNAPPY, GZIP, BROTLI, ZSTD, LZ4 and LZ4_RAW Parquet";

  private static boolean readsCodec(int codec) {
    return codec == UNCOMPRESSED
        || codec == SNAPPY
        || codec == GZIP
        || codec == BROTLI
        || codec == LZ4
        || codec == ZSTD
        || codec == LZ4_RAW;
  }

  private static String codecName(int codec) {
    return codec >= 0 && codec < CODECS.length ? CODECS[codec] : "codec " + codec;
  }

  /**
   * The most bytes {@code compressed} bytes of {@code codec} can decompress to: none 1:1, Snappy
   * about 21:1 (a 3-byte copy of 64), LZ4 about 255:1, deflate 1032:1; ZSTD and Brotli have no
   * useful bound (an RLE block, a long copy), so only the page limit holds them.
   */
  private static long most(int codec, long compressed) {
    long ratio =
        switch (codec) {
          case UNCOMPRESSED -> 1;
          case SNAPPY -> 22;
          case LZ4, LZ4_RAW -> 256;
          case GZIP -> 1033;
          default -> MOST_PAGE_BYTES;
        };
    return Math.min(MOST_PAGE_BYTES, compressed * ratio + 64);
  }

  Object[] read() throws IOException {
    String skipped = skips(column);
    if (skipped != null) {
      throw new IOException("column " + column.name() + " is " + skipped + ": not read");
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
      if (compressed < 0 || compressed > bytes.length - start || uncompressed < 0) {
        throw new IOException("column " + column.name() + ": a page runs past its chunk");
      }
      if (uncompressed > most(chunk.codec(), compressed)) {
        throw new IOException(
            "column "
                + column.name()
                + ": a page of "
                + compressed
                + " bytes claims to hold "
                + uncompressed
                + ", more than "
                + codecName(chunk.codec())
                + " can make of them or the "
                + MOST_PAGE_BYTES
                + " bytes tilebeam reads as one page");
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
    if (chunk.codec() == UNCOMPRESSED) {
      if (length != uncompressed) {
        throw new IOException(
            "column "
                + column.name()
                + ": an uncompressed page of "
                + length
                + " bytes says it holds "
                + uncompressed);
      }
      return java.util.Arrays.copyOfRange(bytes, from, from + length);
    }
    byte[] out = new byte[uncompressed];
    String what = "column " + column.name() + ": a page";
    int n =
        switch (chunk.codec()) {
          case SNAPPY -> Decompress.snappy(bytes, from, length, out, what);
          case GZIP -> Decompress.gunzip(bytes, from, length, out, what);
          case BROTLI -> Decompress.brotli(bytes, from, length, out, what);
          case ZSTD -> Decompress.zstd(bytes, from, length, out, what);
          case LZ4 -> Decompress.lz4Hadoop(bytes, from, length, out, what);
          case LZ4_RAW -> Decompress.lz4Raw(bytes, from, length, out, what);
          default ->
              throw new IOException(
                  "column "
                      + column.name()
                      + " is compressed with "
                      + codecName(chunk.codec())
                      + READS);
        };
    if (n != uncompressed) {
      throw new IOException(
          what + " decompresses to " + n + " bytes, not the " + uncompressed + " it declares");
    }
    return out;
  }

  private void dictionary(Thrift.Struct h, byte[] data) throws IOException {
    int n = h == null ? 0 : h.i32(1, 0);
    // Each entry takes at least a bit (booleans) or a byte of the page: no more can be in it.
    if (n < 0 || n > data.length * 8L) {
      throw new IOException(
          "column "
              + column.name()
              + ": a dictionary of "
              + n
              + " values in "
              + data.length
              + " bytes");
    }
    dictionary = new Object[n];
    plain(data, 0, data.length, n, dictionary, 0);
  }

  /**
   * The values a data page's header {@code h} (v1 or v2: the count is field 1 of both) says it
   * holds, checked to fit in what the chunk has left after {@code filled}.
   */
  private int pageValues(Thrift.Struct h, Object[] out, int filled) throws IOException {
    if (h == null) {
      throw new IOException("column " + column.name() + ": a data page without its header");
    }
    int n = h.i32(1, 0);
    if (n < 0 || n > out.length - filled) {
      throw new IOException(
          "column "
              + column.name()
              + ": a page of "
              + n
              + " values where the chunk has "
              + (out.length - filled)
              + " left");
    }
    return n;
  }

  private int pageV1(Thrift.Struct h, byte[] data, Object[] out, int filled) throws IOException {
    int n = pageValues(h, out, filled);
    int pos = 0;
    int[] defs = null;
    if (column.maxDefinition() > 0) {
      if (h.i32(3, RLE) != RLE) {
        throw new IOException("column " + column.name() + ": definition levels not RLE-encoded");
      }
      if (data.length < 4) {
        throw truncated();
      }
      int length = le32(data, pos);
      pos += 4;
      if (length < 0 || length > data.length - pos) {
        throw truncated();
      }
      defs = new int[n];
      Levels.decode(data, pos, pos + length, Levels.bitWidth(column.maxDefinition()), defs, n);
      pos += length;
    }
    return values(h.i32(2, PLAIN), data, pos, data.length, n, defs, out, filled);
  }

  private int pageV2(
      Thrift.Struct h, int start, int compressed, int uncompressed, Object[] out, int filled)
      throws IOException {
    int n = pageValues(h, out, filled);
    int defLength = h.i32(5, 0);
    int repLength = h.i32(6, 0);
    if (defLength < 0
        || repLength < 0
        || (long) defLength + repLength > compressed
        || (long) defLength + repLength > uncompressed) {
      throw new IOException("column " + column.name() + ": a page's levels run past the page");
    }
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
          if (from >= to) {
            throw truncated();
          }
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
        need(from, 4, to);
        int length = le32(data, from);
        if (length < 0 || length > to - from - 4) {
          throw truncated();
        }
        Levels.decode(data, from + 4, from + 4 + length, 1, bits, present);
        for (int i = 0; i < present; i++) {
          decoded[i] = bits[i] == 1;
        }
      }
      case DELTA_BINARY_PACKED -> {
        if (column.type() != ParquetFile.INT32 && column.type() != ParquetFile.INT64) {
          throw new IOException(
              "column " + column.name() + ": DELTA_BINARY_PACKED values of a non-integer");
        }
        long[] v =
            DeltaEncodings.binaryPacked(
                data,
                new DeltaEncodings.Cursor(from, to),
                present,
                column.type() == ParquetFile.INT64);
        for (int i = 0; i < present; i++) {
          decoded[i] = integer(v[i]);
        }
      }
      case DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY -> {
        if (column.type() != ParquetFile.BYTE_ARRAY
            && column.type() != ParquetFile.FIXED_LEN_BYTE_ARRAY) {
          throw new IOException(
              "column " + column.name() + ": byte-array delta values of a non-byte-array");
        }
        DeltaEncodings.Cursor at = new DeltaEncodings.Cursor(from, to);
        byte[][] v =
            encoding == DELTA_BYTE_ARRAY
                ? DeltaEncodings.byteArray(data, at, present)
                : DeltaEncodings.lengthByteArray(data, at, present);
        for (int i = 0; i < present; i++) {
          decoded[i] = bytesValue(v[i]);
        }
      }
      case BYTE_STREAM_SPLIT -> {
        int width =
            switch (column.type()) {
              case ParquetFile.INT32, ParquetFile.FLOAT -> 4;
              case ParquetFile.INT64, ParquetFile.DOUBLE -> 8;
              case ParquetFile.FIXED_LEN_BYTE_ARRAY -> column.typeLength();
              default ->
                  throw new IOException(
                      "column " + column.name() + ": BYTE_STREAM_SPLIT values of a variable type");
            };
        byte[] joined = DeltaEncodings.joinStreams(data, from, to, present, width);
        plain(joined, 0, joined.length, present, decoded, 0);
      }
      default -> throw new IOException(notRead(column, encoding));
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
