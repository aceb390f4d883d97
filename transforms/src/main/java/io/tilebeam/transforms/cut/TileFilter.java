package io.tilebeam.transforms.cut;

/**
 * Which tiles the cutter makes pieces for (the claimed ones): the cutter skips the columns and rows
 * of the others altogether, so a rerun that claims a few tiles cuts only those.
 */
public interface TileFilter {

  /** Every tile. */
  TileFilter ALL =
      new TileFilter() {
        @Override
        public boolean wantsColumn(int z, long x) {
          return true;
        }

        @Override
        public boolean wants(int z, long x, long y) {
          return true;
        }
      };

  /** Whether any tile of column {@code x} at zoom {@code z} is wanted. */
  boolean wantsColumn(int z, long x);

  /** Whether tile {@code z/x/y} is wanted. */
  boolean wants(int z, long x, long y);
}
