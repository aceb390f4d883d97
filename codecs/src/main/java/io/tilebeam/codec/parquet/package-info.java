/**
 * Parquet files: the footer's Thrift, column chunks with their encodings and compressions, read
 * under bounds ({@link io.tilebeam.codec.parquet.ParquetFile}); and the writer of GeoParquet tiles
 * ({@link io.tilebeam.codec.parquet.ParquetWriter}).
 */
package io.tilebeam.codec.parquet;
