package io.tilebeam.codec.pmtiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads a PMTiles v3 archive, in memory or in a file, by ranges as a server would: its header,
 * metadata and any tile, through the root and leaf directories. For checking an archive before it
 * is published, for finding the pack key of the archive already published, and for tests.
 */
public final class PmtilesReader implements AutoCloseable {

  /** Reads {@code length} bytes at {@code offset}. */
  private interface Ranges extends AutoCloseable {
    byte[] read(long offset, int length) throws IOException;

    long size() throws IOException;

    @Override
    void close() throws IOException;
  }

  private final Ranges archive;
  private final PmtilesHeader header;

  /**
   * Directories decoded, by offset (the root at -1): a look-up of every tile in id order (the check
   * before a publish) decodes each leaf once instead of once a tile.
   */
  private final java.util.LinkedHashMap<Long, List<PmtilesEntry>> directories =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, List<PmtilesEntry>> e) {
          return size() > 16;
        }
      };

  private PmtilesReader(Ranges archive, PmtilesHeader header) {
    this.archive = archive;
    this.header = header;
  }

  /**
   * The reader of an archive held in memory.
   *
   * @throws IOException when the bytes are not a whole PMTiles v3 archive
   */
  public static PmtilesReader of(byte[] archive) throws IOException {
    return open(
        new Ranges() {
          @Override
          public byte[] read(long offset, int length) {
            return Arrays.copyOfRange(archive, (int) offset, (int) (offset + length));
          }

          @Override
          public long size() {
            return archive.length;
          }

          @Override
          public void close() {}
        });
  }

  /**
   * The reader of an archive file, read by ranges; close it.
   *
   * @throws IOException when the file cannot be read or is not a whole PMTiles v3 archive
   */
  public static PmtilesReader open(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    try {
      return open(
          new Ranges() {
            @Override
            public byte[] read(long offset, int length) throws IOException {
              ByteBuffer buf = ByteBuffer.allocate(length);
              while (buf.hasRemaining()) {
                if (channel.read(buf, offset + buf.position()) < 0) {
                  throw new IOException(file + " ends before byte " + (offset + length));
                }
              }
              return buf.array();
            }

            @Override
            public long size() throws IOException {
              return channel.size();
            }

            @Override
            public void close() throws IOException {
              channel.close();
            }
          });
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  private static PmtilesReader open(Ranges archive) throws IOException {
    long size = archive.size();
    if (size < PmtilesHeader.LENGTH) {
      throw new IOException("the archive is " + size + " bytes, shorter than its header");
    }
    PmtilesHeader h = PmtilesHeader.decode(archive.read(0, PmtilesHeader.LENGTH));
    long end = h.dataOffset() + h.dataLength();
    if (end > size
        || h.rootOffset() + h.rootLength() > size
        || h.metadataOffset() + h.metadataLength() > size
        || h.leavesOffset() + h.leavesLength() > size) {
      throw new IOException("the archive is " + size + " bytes, its sections end at " + end);
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
    PmtilesEntry e = entry(z, x, y);
    return e == null ? null : slice(header.dataOffset() + e.offset(), e.length());
  }

  /**
   * The directory entry that places tile {@code z/x/y}'s bytes in the data section, or null when
   * the archive does not hold it.
   */
  public PmtilesEntry entry(int z, long x, long y) throws IOException {
    long id = HilbertTileId.of(z, x, y);
    List<PmtilesEntry> dir = directory(-1, header.rootOffset(), header.rootLength());
    for (int depth = 0; depth < 4; depth++) {
      PmtilesEntry e = find(dir, id);
      if (e == null || e.runLength() > 0) {
        return e;
      }
      dir = directory(e.offset(), header.leavesOffset() + e.offset(), e.length());
    }
    throw new IOException("the archive's directories nest deeper than 3 leaves");
  }

  private List<PmtilesEntry> directory(long key, long offset, long length) throws IOException {
    List<PmtilesEntry> dir = directories.get(key);
    if (dir == null) {
      dir = PmtilesDirectory.decode(slice(offset, length));
      directories.put(key, dir);
    }
    return dir;
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

  private byte[] slice(long offset, long length) throws IOException {
    return archive.read(offset, Math.toIntExact(length));
  }

  @Override
  public void close() throws IOException {
    archive.close();
  }
}
