package io.tilebeam.io.archive;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads a PMTiles v3 archive held in memory: its header, metadata and any tile, through the root
 * and leaf directories. For checking an archive before it is published, and for tests.
 */
public final class PmtilesReader {

  private final byte[] archive;
  private final PmtilesHeader header;

  private PmtilesReader(byte[] archive, PmtilesHeader header) {
    this.archive = archive;
    this.header = header;
  }

  /**
   * An archive's reader.
   *
   * @throws IOException when the bytes are not a whole PMTiles v3 archive
   */
  public static PmtilesReader of(byte[] archive) throws IOException {
    PmtilesHeader h = PmtilesHeader.decode(archive);
    long end = h.dataOffset() + h.dataLength();
    if (end > archive.length
        || h.rootOffset() + h.rootLength() > archive.length
        || h.metadataOffset() + h.metadataLength() > archive.length
        || h.leavesOffset() + h.leavesLength() > archive.length) {
      throw new IOException(
          "the archive is " + archive.length + " bytes, its sections end at " + end);
    }
    return new PmtilesReader(archive, h);
  }

  /** The header. */
  public PmtilesHeader header() {
    return header;
  }

  /** The metadata JSON. */
  public String metadata() throws IOException {
    byte[] gz = slice(header.metadataOffset(), header.metadataLength());
    try (GZIPInputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The bytes of tile {@code z/x/y}, or null when the archive does not hold it. */
  public byte[] tile(int z, long x, long y) throws IOException {
    long id = HilbertTileId.of(z, x, y);
    List<PmtilesEntry> dir =
        PmtilesDirectory.decode(slice(header.rootOffset(), header.rootLength()));
    for (int depth = 0; depth < 4; depth++) {
      PmtilesEntry e = find(dir, id);
      if (e == null) {
        return null;
      }
      if (e.runLength() > 0) {
        return slice(header.dataOffset() + e.offset(), e.length());
      }
      dir = PmtilesDirectory.decode(slice(header.leavesOffset() + e.offset(), e.length()));
    }
    throw new IOException("the archive's directories nest deeper than 3 leaves");
  }

  /** The entry covering {@code id}: the last one starting at or before it, if it reaches it. */
  private static PmtilesEntry find(List<PmtilesEntry> dir, long id) {
    int lo = 0;
    int hi = dir.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long c = dir.get(mid).tileId();
      if (c == id) {
        return dir.get(mid);
      } else if (c < id) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hi < 0) {
      return null;
    }
    PmtilesEntry e = dir.get(hi);
    // A leaf pointer (run length 0) covers every id up to the next entry.
    return e.runLength() == 0 || id - e.tileId() < e.runLength() ? e : null;
  }

  private byte[] slice(long offset, long length) {
    return Arrays.copyOfRange(archive, (int) offset, (int) (offset + length));
  }
}
