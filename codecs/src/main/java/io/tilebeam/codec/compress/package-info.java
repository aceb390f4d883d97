/**
 * Block decompression for the file formats (deflate, LZ4, Snappy, ZSTD, Brotli, gzip), every output
 * bounded by the size its container declares.
 */
package io.tilebeam.codec.compress;
