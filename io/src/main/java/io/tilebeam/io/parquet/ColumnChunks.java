package io.tilebeam.io.parquet;

/** What the column reader can read, asked before a file is used. */
public final class ColumnChunks {

  private ColumnChunks() {}

  /** Why the reader cannot read column {@code c}, or null when it can. */
  public static String refuses(ParquetFile.Column c) {
    return ColumnChunkReader.refuses(c);
  }

  /** Why the reader cannot read chunk {@code c}'s pages (codec, encodings), or null. */
  public static String refusesPages(ParquetFile.Chunk c) {
    return ColumnChunkReader.refusesPages(c);
  }
}
