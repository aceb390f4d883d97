package io.tilebeam.codec.pmtiles;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Tiles for archive tests. */
final class TestArchives {

  private TestArchives() {}

  /**
   * An ocean of identical tiles over zooms 0-7 (21,845 tiles, content {@code "ocean"}) and 40,000
   * seeded random tiles at zoom 12, each its own content of 1 to {@code longest} random bytes:
   * enough irregular entries to need leaf directories. Each content is put in {@code contents}
   * under its tile's checksum.
   */
  static List<PmtilesWriter.Tile> oceanAndLand(
      long seed, int longest, Map<String, byte[]> contents) {
    List<PmtilesWriter.Tile> tiles = new ArrayList<>();
    byte[] ocean = "ocean".getBytes(StandardCharsets.UTF_8);
    contents.put("ocean", ocean);
    for (int z = 0; z <= 7; z++) {
      for (long x = 0; x < 1L << z; x++) {
        for (long y = 0; y < 1L << z; y++) {
          tiles.add(new PmtilesWriter.Tile(z, x, y, ocean.length, "ocean"));
        }
      }
    }
    Random random = new Random(seed);
    Set<Long> taken = new HashSet<>();
    while (taken.size() < 40_000) {
      long x = random.nextInt(4096);
      long y = random.nextInt(4096);
      if (taken.add(x * 4096 + y)) {
        byte[] land = new byte[1 + random.nextInt(longest)];
        random.nextBytes(land);
        contents.put("land" + x + "/" + y, land);
        tiles.add(new PmtilesWriter.Tile(12, x, y, land.length, "land" + x + "/" + y));
      }
    }
    return tiles;
  }
}
