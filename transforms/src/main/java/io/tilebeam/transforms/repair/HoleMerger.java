package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;

/**
 * Merges the holes of a polygon that cross or share an edge with one another (two lakes drawn side
 * by side with a common border, which real data often has), or that touch one another in a cycle
 * (two lakes meeting at two points, cutting off the land between). The holes' segments are searched
 * once through a grid ({@link SegmentPairs}), and only the holes that meet more than at points are
 * unioned, so a mainland with a hundred thousand lakes costs its three bad pairs, not an overlay of
 * the whole polygon. Land that the merged holes enclose becomes a polygon of its own.
 */
final class HoleMerger {

  private HoleMerger() {}

  /** The polygon with overlapping holes merged; itself when no holes overlap. */
  static Geometry merge(Polygon p) {
    int holes = p.getNumInteriorRing();
    if (holes < 2) {
      return p;
    }
    int[] parent = new int[holes];
    for (int i = 0; i < holes; i++) {
      parent[i] = i;
    }
    List<Coordinate[]> rings = new ArrayList<>(holes);
    for (int i = 0; i < holes; i++) {
      rings.add(p.getInteriorRingN(i).getCoordinates());
    }
    boolean[] any = {false};
    TouchCycles cycles = new TouchCycles(holes);
    RobustLineIntersector li = new RobustLineIntersector();
    SegmentPairs.visit(
        rings,
        (ra, i, rb, j) -> {
          if (ra == rb) {
            return;
          }
          Coordinate[] ca = rings.get(ra);
          Coordinate[] cb = rings.get(rb);
          li.computeIntersection(ca[i], ca[i + 1], cb[j], cb[j + 1]);
          if (!li.hasIntersection()) {
            return;
          }
          // Meeting at a point is allowed, unless such meetings close a cycle; crossing or
          // sharing a stretch is not. Merged holes stay in the graph of touches, joined: a hole
          // touching two that overlap each other encloses land as surely as one touching a single
          // hole twice, whichever of the three pairs is found first.
          if (li.isProper() || li.getIntersectionNum() == 2) {
            parent[UnionFind.root(parent, rb)] = UnionFind.root(parent, ra);
            any[0] = true;
            cycles.overlap(ra, rb);
          } else {
            cycles.touch(ra, rb, li.getIntersection(0));
          }
        });
    // Holes touching in a cycle enclose land: merged, the land becomes an island.
    any[0] |= cycles.joinCyclic(parent);
    if (!any[0]) {
      return p;
    }
    GeometryFactory f = p.getFactory();
    Map<Integer, List<Polygon>> groups = new TreeMap<>();
    for (int i = 0; i < holes; i++) {
      groups
          .computeIfAbsent(UnionFind.root(parent, i), k -> new ArrayList<>())
          .add(f.createPolygon(p.getInteriorRingN(i)));
    }
    List<LinearRing> kept = new ArrayList<>();
    List<Polygon> islands = new ArrayList<>();
    for (List<Polygon> group : groups.values()) {
      if (group.size() == 1) {
        kept.add(group.get(0).getExteriorRing());
        continue;
      }
      Geometry union = OverlayNGRobust.union(f.buildGeometry(group));
      for (int k = 0; k < union.getNumGeometries(); k++) {
        Polygon water = (Polygon) union.getGeometryN(k);
        kept.add(water.getExteriorRing());
        for (int h = 0; h < water.getNumInteriorRing(); h++) {
          islands.add(f.createPolygon(water.getInteriorRingN(h)));
        }
      }
    }
    Polygon merged = f.createPolygon(p.getExteriorRing(), kept.toArray(LinearRing[]::new));
    if (islands.isEmpty()) {
      return merged;
    }
    islands.add(0, merged);
    return f.createMultiPolygon(islands.toArray(Polygon[]::new));
  }

  /**
   * The graph of holes and the points where they touch: a component with a cycle (two holes
   * touching twice, or a ring of holes each touching the next) cuts land off.
   */
  private static final class TouchCycles {
    private final List<Integer> parent = new ArrayList<>();
    private final Map<Coordinate, Integer> points = new java.util.HashMap<>();
    private final Map<Long, Integer> overlaps = new java.util.HashMap<>();
    private final java.util.Set<Long> incidences = new java.util.HashSet<>();
    private final java.util.Set<Integer> cyclic = new java.util.HashSet<>();
    private final int holes;

    TouchCycles(int holes) {
      this.holes = holes;
      for (int i = 0; i < holes; i++) {
        parent.add(i);
      }
    }

    /** Holes {@code a} and {@code b} overlap: joined through a node of their own. */
    void overlap(int a, int b) {
      long pair = ((long) Math.min(a, b) << 32) | Math.max(a, b);
      Integer node = overlaps.get(pair);
      if (node == null) {
        node = parent.size();
        parent.add(node);
        overlaps.put(pair, node);
      }
      join(a, node);
      join(b, node);
    }

    void touch(int a, int b, Coordinate at) {
      Integer node = points.get(at);
      if (node == null) {
        node = parent.size();
        parent.add(node);
        points.put(new Coordinate(at), node);
      }
      join(a, node);
      join(b, node);
    }

    private void join(int hole, int node) {
      if (!incidences.add(((long) hole << 32) | node)) {
        return;
      }
      int ra = find(hole);
      int rb = find(node);
      if (ra == rb) {
        cyclic.add(ra);
      } else {
        parent.set(ra, rb);
        if (cyclic.remove(ra)) {
          cyclic.add(rb);
        }
      }
    }

    /** Joins, in {@code holeParent}, the holes of every component with a cycle. */
    boolean joinCyclic(int[] holeParent) {
      if (cyclic.isEmpty()) {
        return false;
      }
      Map<Integer, Integer> first = new java.util.HashMap<>();
      boolean any = false;
      for (int h = 0; h < holes; h++) {
        int root = find(h);
        if (!cyclic.contains(root)) {
          continue;
        }
        Integer other = first.putIfAbsent(root, h);
        if (other != null) {
          holeParent[UnionFind.root(holeParent, h)] = UnionFind.root(holeParent, other);
          any = true;
        }
      }
      return any;
    }

    private int find(int i) {
      while (parent.get(i) != i) {
        parent.set(i, parent.get(parent.get(i)));
        i = parent.get(i);
      }
      return i;
    }
  }
}
