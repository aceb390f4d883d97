package io.tilebeam.codec.parquet;

/** What the column reader can read, asked before a file is used. */
public final class ColumnChunks {

  private ColumnChunks() {}

  /**
   * Why column {@code c} cannot become a feature property (a list or map, INT96 timestamps), or
   * null when it can.
   */
  public static String skips(ParquetFile.Column c) {
    return ColumnChunkReader.skips(c);
  }

  /** Why the reader cannot read chunk {@code c}'s pages (codec, encodings), or null. */
  public static String refusesPages(ParquetFile.Chunk c) {
    return ColumnChunkReader.refusesPages(c);
  }
}
