package io.tilebeam.codec.pmtiles;

/**
 * One entry of a PMTiles v3 directory: {@code runLength} consecutive tile ids from {@code tileId}
 * sharing the bytes at {@code offset} (relative to the tile data section) of {@code length}; a run
 * length of 0 points to a leaf directory instead (its offset relative to the leaf section).
 *
 * @param tileId the first tile id
 * @param offset where the bytes start
 * @param length how many bytes
 * @param runLength how many consecutive ids share them, or 0 for a leaf directory
 */
public record PmtilesEntry(long tileId, long offset, long length, long runLength) {}
