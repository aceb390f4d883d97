package io.tilebeam.codec.pmtiles;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a PMTiles v3 archive (header, root directory, metadata, leaf directories, tile data, in
 * that order) from tiles already made: each distinct content stored once (by checksum), runs of
 * consecutive tile ids sharing a content written as one entry, directories gzip-compressed and
 * split into leaves when the root would not fit in the archive's first 16 KiB. Tile data is read
 * one tile at a time as it is written, so memory holds the directories, not the tiles.
 *
 * <p>The same tiles and information give the same bytes.
 */
public final class PmtilesWriter {

  /** The header and root directory must fit in this many bytes (the spec's first fetch). */
  static final int FIRST_BYTES = 16_384;

  private PmtilesWriter() {}

  /**
   * A tile to archive.
   *
   * @param z zoom
   * @param x column
   * @param y row, from the top
   * @param length its bytes' length
   * @param checksum its content's checksum: equal checksums mean equal bytes
   */
  public record Tile(int z, long x, long y, long length, String checksum) {

    /** Its PMTiles tile id. */
    public long id() {
      return HilbertTileId.of(z, x, y);
    }
  }

  /** Reads a tile's bytes when they are written. */
  public interface TileBytes {
    /** The bytes of {@code tile}. */
    byte[] read(Tile tile) throws IOException;
  }

  /**
   * What the header and metadata say besides the tiles.
   *
   * @param tileType 1 MVT, 2 PNG, 0 other (GeoTIFF has no PMTiles type)
   * @param tileCompression 1 none, 2 gzip
   * @param minZoom the layer's first zoom
   * @param maxZoom the layer's last zoom
   * @param bounds west, south, east, north in degrees
   * @param metadata the metadata JSON
   */
  public record Info(
      int tileType,
      int tileCompression,
      int minZoom,
      int maxZoom,
      double[] bounds,
      String metadata) {

    /** The information of tiles whose zooms are the range they span. */
    public Info(int tileType, int tileCompression, double[] bounds, String metadata) {
      this(tileType, tileCompression, -1, -1, bounds, metadata);
    }
  }

  /**
   * Writes the archive of {@code tiles} to {@code out}; returns its header.
   *
   * @throws IOException when a tile cannot be read or the archive written
   * @throws IllegalArgumentException when two tiles have the same place, or there are none and
   *     {@code info} gives no zooms
   */
  public static PmtilesHeader write(List<Tile> tiles, TileBytes bytes, Info info, OutputStream out)
      throws IOException {
    if (tiles.isEmpty() && info.minZoom() < 0) {
      throw new IllegalArgumentException("an archive of no tiles needs its zooms");
    }
    List<Tile> sorted = new ArrayList<>(tiles);
    sorted.sort(Comparator.comparingLong(Tile::id));
    List<PmtilesEntry> entries = new ArrayList<>();
    List<Tile> stored = new ArrayList<>();
    Map<String, long[]> placed = new HashMap<>();
    long dataLength = 0;
    long previousId = -1;
    for (Tile t : sorted) {
      long id = t.id();
      if (id == previousId) {
        throw new IllegalArgumentException("two tiles at " + t.z() + "/" + t.x() + "/" + t.y());
      }
      previousId = id;
      long[] at = placed.get(t.checksum());
      if (at == null) {
        at = new long[] {dataLength, t.length()};
        placed.put(t.checksum(), at);
        stored.add(t);
        dataLength += t.length();
      }
      PmtilesEntry last = entries.isEmpty() ? null : entries.get(entries.size() - 1);
      if (last != null
          && last.offset() == at[0]
          && last.length() == at[1]
          && last.tileId() + last.runLength() == id) {
        entries.set(
            entries.size() - 1,
            new PmtilesEntry(last.tileId(), last.offset(), last.length(), last.runLength() + 1));
      } else {
        entries.add(new PmtilesEntry(id, at[0], at[1], 1));
      }
    }
    Directories dirs = directories(entries);
    byte[] metadata = PmtilesDirectory.gzip(info.metadata().getBytes(StandardCharsets.UTF_8));
    long rootOffset = PmtilesHeader.LENGTH;
    long metadataOffset = rootOffset + dirs.root.length;
    long leavesOffset = metadataOffset + metadata.length;
    long dataOffset = leavesOffset + dirs.leaves.length;
    int minZoom =
        info.minZoom() >= 0
            ? info.minZoom()
            : sorted.stream().mapToInt(Tile::z).min().orElseThrow();
    int maxZoom =
        info.maxZoom() >= 0
            ? info.maxZoom()
            : sorted.stream().mapToInt(Tile::z).max().orElseThrow();
    double[] b = info.bounds();
    PmtilesHeader header =
        new PmtilesHeader(
            rootOffset,
            dirs.root.length,
            metadataOffset,
            metadata.length,
            leavesOffset,
            dirs.leaves.length,
            dataOffset,
            dataLength,
            sorted.size(),
            entries.size(),
            stored.size(),
            true,
            2,
            info.tileCompression(),
            info.tileType(),
            minZoom,
            maxZoom,
            e7(b[0]),
            e7(b[1]),
            e7(b[2]),
            e7(b[3]),
            minZoom,
            e7((b[0] + b[2]) / 2),
            e7((b[1] + b[3]) / 2));
    out.write(header.encode());
    out.write(dirs.root);
    out.write(metadata);
    out.write(dirs.leaves);
    for (Tile t : stored) {
      byte[] data = bytes.read(t);
      if (data.length != t.length()) {
        throw new IOException(
            "tile "
                + t.z()
                + "/"
                + t.x()
                + "/"
                + t.y()
                + " is "
                + data.length
                + " bytes, not "
                + t.length());
      }
      out.write(data);
    }
    return header;
  }

  private static int e7(double degrees) {
    return (int) Math.round(degrees * 10_000_000);
  }

  private record Directories(byte[] root, byte[] leaves) {}

  /**
   * The root directory alone when it fits in the first 16 KiB with the header; else leaves of
   * {@code size} entries (from 4,096, doubled until the root of leaf pointers fits).
   */
  private static Directories directories(List<PmtilesEntry> entries) throws IOException {
    byte[] root = PmtilesDirectory.encode(entries);
    if (PmtilesHeader.LENGTH + root.length <= FIRST_BYTES) {
      return new Directories(root, new byte[0]);
    }
    for (int size = 4096; ; size *= 2) {
      List<PmtilesEntry> pointers = new ArrayList<>();
      java.io.ByteArrayOutputStream leaves = new java.io.ByteArrayOutputStream();
      for (int from = 0; from < entries.size(); from += size) {
        List<PmtilesEntry> part = entries.subList(from, Math.min(entries.size(), from + size));
        byte[] leaf = PmtilesDirectory.encode(part);
        pointers.add(new PmtilesEntry(part.get(0).tileId(), leaves.size(), leaf.length, 0));
        leaves.write(leaf);
      }
      root = PmtilesDirectory.encode(pointers);
      if (PmtilesHeader.LENGTH + root.length <= FIRST_BYTES) {
        return new Directories(root, leaves.toByteArray());
      }
    }
  }
}
