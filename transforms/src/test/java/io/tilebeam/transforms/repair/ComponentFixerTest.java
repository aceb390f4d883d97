package io.tilebeam.transforms.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.io.WKTReader;

/** Repairs of a polygon's components that leave some of them without a part. */
class ComponentFixerTest {

  /**
   * The last component overlaps the first and is fixed into nothing (a flat ring): the overlap
   * named it, and the merge of overlapping groups once indexed past the components that were left
   * (an ArrayIndexOutOfBoundsException that failed a whole run at zoom 9 of real country data).
   */
  @Test
  void anOverlappingComponentFixedIntoNothingLeavesTheOthers() throws Exception {
    Geometry g =
        new WKTReader()
            .read("MULTIPOLYGON(((0 0, 10 0, 10 10, 0 10, 0 0)), ((5 5, 15 5, 10 5, 5 5)))");
    BitSet bad = new BitSet();
    bad.set(1);
    List<int[]> overlapping = new ArrayList<>();
    overlapping.add(new int[] {0, 1});
    PolygonValidity.Report report =
        new PolygonValidity.Report(
            bad, overlapping, List.of(), "x", new BitSet(), null, null, null);
    ComponentFixer.Fixed fixed = new ComponentFixer(new PrecisionModel(1000)).fix(g, report);
    assertEquals(1, fixed.geometry().getNumGeometries(), fixed.geometry().toText());
    assertEquals(100, fixed.geometry().getArea(), 1e-9);
    assertTrue(fixed.report().valid());
  }
}
