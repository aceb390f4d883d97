package io.tilebeam.io.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.wololo.flatgeobuf.NodeItem;
import org.wololo.flatgeobuf.PackedRTree;

/**
 * FlatGeobuf tiles keep their bytes: the index order computed once per item is the order of the
 * library's own Hilbert sort, ties (boxes with the same centre cell) included.
 */
class HilbertOrderTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 17, 1_000, 20_000})
  void itemsComeInTheLibrarysOrder(int n) {
    SplittableRandom random = new SplittableRandom(n);
    List<PackedRTree.FeatureItem> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      PackedRTree.FeatureItem item = new PackedRTree.FeatureItem();
      // Few distinct centres, so that many items tie and stability matters.
      double x = random.nextInt(40) * 2.5;
      double y = random.nextInt(40) * 2.5;
      double r = random.nextInt(3);
      item.nodeItem = new NodeItem(x - r, y - r, x + r, y + r);
      item.nodeItem.offset = i;
      items.add(item);
    }
    NodeItem bounds = n == 0 ? new NodeItem(0, 0, 1, 1) : PackedRTree.calcExtent(items);
    List<PackedRTree.FeatureItem> expected = new ArrayList<>(items);
    PackedRTree.hilbertSort(expected, bounds);
    List<PackedRTree.FeatureItem> actual = FlatGeobufFormat.hilbertSorted(items, bounds);
    assertEquals(offsets(expected), offsets(actual));
  }

  private static List<Long> offsets(List<PackedRTree.FeatureItem> items) {
    return items.stream().map(i -> i.nodeItem.offset).toList();
  }
}
