package io.tilebeam.codec.pmtiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The 127-byte header of a PMTiles v3 archive: where its sections are, how many tiles it addresses,
 * how its parts are compressed, what its tiles are, and the area and zooms it covers.
 *
 * @param rootOffset where the root directory starts
 * @param rootLength its length
 * @param metadataOffset where the metadata JSON starts
 * @param metadataLength its length
 * @param leavesOffset where the leaf directories start
 * @param leavesLength their length
 * @param dataOffset where the tile data starts
 * @param dataLength its length
 * @param addressedTiles how many tiles the archive answers for
 * @param tileEntries how many directory entries point at tile data
 * @param tileContents how many distinct tile contents it stores
 * @param clustered whether tile data is in tile id order
 * @param internalCompression how directories and metadata are compressed (2: gzip)
 * @param tileCompression how tiles are compressed (1: none, 2: gzip)
 * @param tileType 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF, 0 other
 * @param minZoom the first zoom
 * @param maxZoom the last zoom
 * @param minLonE7 west edge, degrees × 10^7
 * @param minLatE7 south edge
 * @param maxLonE7 east edge
 * @param maxLatE7 north edge
 * @param centerZoom the zoom to open at
 * @param centerLonE7 the centre's longitude, degrees × 10^7
 * @param centerLatE7 its latitude
 */
public record PmtilesHeader(
    long rootOffset,
    long rootLength,
    long metadataOffset,
    long metadataLength,
    long leavesOffset,
    long leavesLength,
    long dataOffset,
    long dataLength,
    long addressedTiles,
    long tileEntries,
    long tileContents,
    boolean clustered,
    int internalCompression,
    int tileCompression,
    int tileType,
    int minZoom,
    int maxZoom,
    int minLonE7,
    int minLatE7,
    int maxLonE7,
    int maxLatE7,
    int centerZoom,
    int centerLonE7,
    int centerLatE7) {

  /** Bytes in a header. */
  public static final int LENGTH = 127;

  private static final byte[] MAGIC = "PMTiles".getBytes(StandardCharsets.US_ASCII);

  /** The header's bytes. */
  public byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    b.put(MAGIC).put((byte) 3);
    b.putLong(rootOffset).putLong(rootLength);
    b.putLong(metadataOffset).putLong(metadataLength);
    b.putLong(leavesOffset).putLong(leavesLength);
    b.putLong(dataOffset).putLong(dataLength);
    b.putLong(addressedTiles).putLong(tileEntries).putLong(tileContents);
    b.put((byte) (clustered ? 1 : 0));
    b.put((byte) internalCompression).put((byte) tileCompression).put((byte) tileType);
    b.put((byte) minZoom).put((byte) maxZoom);
    b.putInt(minLonE7).putInt(minLatE7).putInt(maxLonE7).putInt(maxLatE7);
    b.put((byte) centerZoom).putInt(centerLonE7).putInt(centerLatE7);
    return b.array();
  }

  /**
   * A header read back.
   *
   * @throws IOException when the bytes are not a PMTiles v3 header
   */
  public static PmtilesHeader decode(byte[] bytes) throws IOException {
    if (bytes.length < LENGTH) {
      throw new IOException("a PMTiles header is " + LENGTH + " bytes, not " + bytes.length);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < MAGIC.length; i++) {
      if (b.get(i) != MAGIC[i]) {
        throw new IOException("not a PMTiles archive");
      }
    }
    if (b.get(7) != 3) {
      throw new IOException("PMTiles version " + b.get(7) + ", not 3");
    }
    b.position(8);
    return new PmtilesHeader(
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.getLong(),
        b.get() == 1,
        b.get() & 0xFF,
        b.get() & 0xFF,
        b.get() & 0xFF,
        b.get() & 0xFF,
        b.get() & 0xFF,
        b.getInt(),
        b.getInt(),
        b.getInt(),
        b.getInt(),
        b.get() & 0xFF,
        b.getInt(),
        b.getInt());
  }
}
