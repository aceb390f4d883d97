package io.tilebeam.codec.pmtiles;

/**
 * PMTiles v3 tile ids: the tiles of all lower zooms counted first, then the position of (x, y) on
 * the zoom's Hilbert curve, so that tiles near each other on the map are near each other in the
 * archive and a whole zoom is one contiguous range.
 */
public final class HilbertTileId {

  /** The deepest zoom whose ids fit in a signed 64-bit id (4^31 tiles and all below). */
  public static final int MAX_ZOOM = 31;

  private HilbertTileId() {}

  /**
   * The id of tile {@code z/x/y}.
   *
   * @throws IllegalArgumentException for a zoom beyond {@link #MAX_ZOOM} or a tile outside it
   */
  public static long of(int z, long x, long y) {
    if (z < 0 || z > MAX_ZOOM) {
      throw new IllegalArgumentException("zoom " + z + " is outside 0-" + MAX_ZOOM);
    }
    long n = 1L << z;
    if (x < 0 || y < 0 || x >= n || y >= n) {
      throw new IllegalArgumentException("tile " + z + "/" + x + "/" + y + " is outside its zoom");
    }
    return firstOf(z) + hilbert(n, x, y);
  }

  /** The first id of zoom {@code z}: (4^z - 1) / 3 tiles in the zooms before it. */
  static long firstOf(int z) {
    return ((1L << (2 * z)) - 1) / 3;
  }

  /**
   * The tile of an id, as {@code {z, x, y}}.
   *
   * @throws IllegalArgumentException for a negative id or one beyond {@link #MAX_ZOOM}
   */
  public static long[] tile(long id) {
    if (id < 0) {
      throw new IllegalArgumentException("tile id " + id + " is negative");
    }
    for (int z = 0; z <= MAX_ZOOM; z++) {
      long count = 1L << (2 * z);
      long first = firstOf(z);
      if (id < first + count) {
        long[] xy = fromHilbert(1L << z, id - first);
        return new long[] {z, xy[0], xy[1]};
      }
    }
    throw new IllegalArgumentException("tile id " + id + " is beyond zoom " + MAX_ZOOM);
  }

  /** The distance of (x, y) along the Hilbert curve filling an n × n square. */
  private static long hilbert(long n, long x, long y) {
    long d = 0;
    long[] xy = {x, y};
    for (long s = n / 2; s > 0; s /= 2) {
      long rx = (xy[0] & s) > 0 ? 1 : 0;
      long ry = (xy[1] & s) > 0 ? 1 : 0;
      d += s * s * ((3 * rx) ^ ry);
      rotate(s, xy, rx, ry);
    }
    return d;
  }

  /** The (x, y) at distance {@code d} along the Hilbert curve filling an n × n square. */
  private static long[] fromHilbert(long n, long d) {
    long[] xy = {0, 0};
    long t = d;
    for (long s = 1; s < n; s *= 2) {
      long rx = 1 & (t / 2);
      long ry = 1 & (t ^ rx);
      rotate(s, xy, rx, ry);
      xy[0] += s * rx;
      xy[1] += s * ry;
      t /= 4;
    }
    return xy;
  }

  /** The curve's turn in a quadrant of side {@code s}: flipped, then x and y swapped. */
  private static void rotate(long s, long[] xy, long rx, long ry) {
    if (ry == 0) {
      if (rx == 1) {
        xy[0] = s - 1 - xy[0];
        xy[1] = s - 1 - xy[1];
      }
      long swap = xy[0];
      xy[0] = xy[1];
      xy[1] = swap;
    }
  }
}
