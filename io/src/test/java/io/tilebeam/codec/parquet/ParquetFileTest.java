package io.tilebeam.codec.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.source.NodeScripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Parquet reader against files of other writers: DuckDB's (the npm package @duckdb/node-api) in
 * every codec it writes, data pages v1 (PLAIN, dictionary) and v2 (DELTA_BINARY_PACKED,
 * DELTA_LENGTH_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE_DICTIONARY), several row groups, nulls and a list
 * column; and hyparquet-writer's DELTA_BYTE_ARRAY, which DuckDB does not write. Every value of
 * every row is checked against the formula it was written from.
 */
class ParquetFileTest {

  private static final int ROWS = 10_000;

  @TempDir static Path dir;

  static ParquetFile.Ranges ranges(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return new ParquetFile.Ranges() {
      @Override
      public byte[] read(long offset, int length) throws IOException {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
          throw new java.io.EOFException(offset + " + " + length + " past " + bytes.length);
        }
        return java.util.Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
      }

      @Override
      public long size() {
        return bytes.length;
      }
    };
  }

  /** Every row of every readable column, by column name, in file order. */
  private static Map<String, Object[]> read(Path file) throws IOException {
    ParquetFile f = ParquetFile.open(ranges(file));
    Map<String, Object[]> out = new HashMap<>();
    int row = 0;
    for (ParquetFile.RowGroup g : f.rowGroups()) {
      for (ParquetFile.Chunk chunk : g.chunks()) {
        if (ColumnChunks.skips(chunk.column()) != null) {
          continue;
        }
        assertNull(ColumnChunks.refusesPages(chunk), chunk.column().name());
        Object[] values = f.values(chunk);
        assertEquals(g.rows(), values.length, chunk.column().name());
        Object[] all = out.computeIfAbsent(chunk.column().name(), n -> new Object[ROWS]);
        System.arraycopy(values, 0, all, row, values.length);
      }
      row += (int) g.rows();
    }
    assertEquals(ROWS, row);
    assertEquals(ROWS, f.rows());
    return out;
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "zstd, V2",
    "zstd, V1",
    "lz4, V2",
    "snappy, V1",
    "snappy, V2",
    "gzip, V2",
    "brotli, V1",
    "uncompressed, V1",
    "uncompressed, V2",
  })
  void readsEveryValueDuckDbWrites(String codec, String version) throws Exception {
    Path file = dir.resolve("types-" + codec + "-" + version + ".parquet");
    String made =
        NodeScripts.run(
            ParquetFileTest.class,
            "write-types-duckdb.mjs",
            dir,
            file.toString(),
            codec,
            version,
            Integer.toString(ROWS),
            "2048");
    assertTrue(made.contains("\"row_groups\":\"5\""), made);
    Map<String, Object[]> v = read(file);
    for (int i = 0; i < ROWS; i++) {
      assertEquals((long) i * 37 - 5000, v.get("a")[i], "a " + i);
      assertEquals((long) i * 1000000007L, v.get("b")[i], "b " + i);
      assertEquals("v" + (i % 7), v.get("s")[i], "s " + i);
      assertEquals("prefix-shared-" + i, v.get("u")[i], "u " + i);
      assertEquals(Double.parseDouble(Float.toString((float) i / 3f)), v.get("f")[i], "f " + i);
      assertEquals(i / 7.0, v.get("d")[i], "d " + i);
      assertEquals(i % 3 == 0, v.get("bo")[i], "bo " + i);
      assertEquals(i % 5 == 0 ? null : (Object) (long) i, v.get("n")[i], "n " + i);
    }
    assertTrue(!v.containsKey("l.list.element"), "the list column is not read");
  }

  @Test
  void readsDeltaByteArraysAndTheOtherEncodingsOfHyparquetWriter() throws Exception {
    Path file = dir.resolve("encodings.parquet");
    NodeScripts.run(
        ParquetFileTest.class,
        "write-encodings-hyparquet.mjs",
        dir,
        file.toString(),
        Integer.toString(ROWS),
        "3000");
    ParquetFile f = ParquetFile.open(ranges(file));
    assertTrue(
        f.rowGroups().get(0).chunks().get(0).encodings().contains(7),
        "u is DELTA_BYTE_ARRAY: " + f.rowGroups().get(0).chunks().get(0).encodings());
    Map<String, Object[]> v = read(file);
    for (int i = 0; i < ROWS; i++) {
      assertEquals("prefix-shared-" + i, v.get("u")[i], "u " + i);
      assertEquals((long) i * 37 - 5000, v.get("a")[i], "a " + i);
      assertEquals((long) i * 1000000007L, v.get("b")[i], "b " + i);
      assertEquals(Double.parseDouble(Float.toString((float) i / 3f)), v.get("f")[i], "f " + i);
      assertEquals(i / 7.0, v.get("d")[i], "d " + i);
    }
  }

  @Test
  void aCodecNotReadIsRefusedByNameFromTheFooter() throws Exception {
    // LZO, which no writer at hand makes: the codec is the footer's word.
    byte[] body = HostileParquet.plainBinary(HostileParquet.points(0, 0));
    byte[] bytes =
        HostileParquet.file(
            new HostileParquet.GeometryChunk(
                3,
                java.util.List.of(HostileParquet.dataPage(20, body.length, body.length, 0)),
                java.util.List.of(body)),
            null);
    Path file = Files.write(dir.resolve("lzo.parquet"), bytes);
    ParquetFile f = ParquetFile.open(ranges(file));
    String refused = ColumnChunks.refusesPages(f.rowGroups().get(1).chunks().get(0));
    assertTrue(refused.contains("LZO") && refused.contains("ZSTD"), refused);
    IOException e =
        assertThrows(IOException.class, () -> f.values(f.rowGroups().get(1).chunks().get(0)));
    assertTrue(e.getMessage().contains("LZO"), e.getMessage());
  }
}
