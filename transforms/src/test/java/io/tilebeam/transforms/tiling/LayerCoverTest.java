package io.tilebeam.transforms.tiling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.jupiter.api.Test;

/** A cover's counts, kept by the planner and carried to PlanTiles' workers. */
class LayerCoverTest {

  /** Two overlapping 3×3 ranges at zoom 4 share 4 tiles; one 2×2 range at zoom 5. */
  private static final LayerCover COVER =
      new LayerCover(
          List.of(
              new TileRange(4, 0, 0, 2, 2),
              new TileRange(4, 1, 1, 3, 3),
              new TileRange(5, 0, 0, 1, 1)));

  @Test
  void overlapsAreCountedOnceAndAsDuplicates() {
    assertEquals(9 + 9 - 4 + 4, COVER.count());
    assertEquals(4, COVER.duplicates());
  }

  @Test
  void aCopyCountsAlikeWhetherOrNotTheOriginalHadCounted() {
    // Read back before the original counts, and after: the kept count must not travel as zero.
    LayerCover early =
        SerializableUtils.clone(
            new LayerCover(
                List.of(
                    new TileRange(4, 0, 0, 2, 2),
                    new TileRange(4, 1, 1, 3, 3),
                    new TileRange(5, 0, 0, 1, 1))));
    COVER.count();
    LayerCover late = SerializableUtils.clone(COVER);
    for (LayerCover copy : List.of(early, late)) {
      assertEquals(COVER, copy);
      assertEquals(18, copy.count());
      assertEquals(4, copy.duplicates());
    }
  }
}
