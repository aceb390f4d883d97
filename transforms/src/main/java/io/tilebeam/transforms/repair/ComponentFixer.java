package io.tilebeam.transforms.repair;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.index.strtree.STRtree;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;

/**
 * Repairs a polygonal geometry one polygon at a time, where {@link PolygonValidity} found faults:
 * each invalid polygon is fixed on its own (by merging its overlapping holes, {@link HoleMerger};
 * else by rebuilding it from its noded rings, {@link RingPolygonizer}; else by JTS's {@link
 * GeometryFixer}), and only polygons that overlap one another are merged. A country of twenty
 * thousand islands with one bad lake costs the lake's polygon, where fixing the whole multi-polygon
 * at once unions every island (minutes for Canada). Fixed polygons are put back on the precision
 * grid by snap-rounding, which keeps them valid there.
 */
final class ComponentFixer {

  private final PrecisionModel precision;

  ComponentFixer(PrecisionModel precision) {
    this.precision = precision;
  }

  /** A repaired geometry and its own validity report. */
  record Fixed(Geometry geometry, PolygonValidity.Report report) {}

  /**
   * The geometry repaired where {@code report} found faults: polygons lying inside another's area
   * dropped (the union of both is the outer one), holes lying outside their shell moved to the
   * polygon that holds them, bad polygons fixed one by one, polygons whose boundaries cross merged;
   * polygonal input only.
   */
  Fixed fix(Geometry g, PolygonValidity.Report report) {
    GeometryFactory f = g.getFactory();
    java.util.BitSet inner = new java.util.BitSet();
    report.nested().forEach(pair -> inner.set(pair[0]));
    List<Polygon> polygons = new ArrayList<>();
    List<Integer> origin = new ArrayList<>();
    List<LinearRing> orphans = new ArrayList<>();
    for (int i = 0; i < g.getNumGeometries(); i++) {
      Polygon p = (Polygon) g.getGeometryN(i);
      if (inner.get(i)) {
        continue;
      }
      if (!report.bad().get(i)) {
        polygons.add(p);
        origin.add(i);
        continue;
      }
      for (Polygon q : fixOne(p, report, i, orphans)) {
        polygons.add(q);
        origin.add(i);
      }
    }
    List<Polygon> merged =
        mergeOverlapping(polygons, origin, g.getNumGeometries(), report.overlapping());
    Geometry out = f.createMultiPolygon(adopt(merged, orphans, f).toArray(Polygon[]::new));
    // A fix may leave a polygon inside another (land drawn twice): one more pass drops it.
    PolygonValidity.Report again = PolygonValidity.check(out);
    if (!again.nested().isEmpty() && again.bad().isEmpty() && again.overlapping().isEmpty()) {
      java.util.BitSet drop = new java.util.BitSet();
      again.nested().forEach(pair -> drop.set(pair[0]));
      List<Polygon> kept = new ArrayList<>();
      for (int i = 0; i < out.getNumGeometries(); i++) {
        if (!drop.get(i)) {
          kept.add((Polygon) out.getGeometryN(i));
        }
      }
      out = f.createMultiPolygon(kept.toArray(Polygon[]::new));
      again = PolygonValidity.check(out);
    }
    return new Fixed(out, again);
  }

  /**
   * One bad polygon made valid: holes outside its shell taken out (into {@code orphans}); its
   * overlapping holes merged, unless its shell is at fault, which merging holes leaves as it is;
   * else rebuilt from its noded rings; else by JTS's fixer. {@code report} is the check of the
   * geometry that holds it as polygon {@code index}.
   */
  private List<Polygon> fixOne(
      Polygon p, PolygonValidity.Report report, int index, List<LinearRing> orphans) {
    Polygon rest = withoutOrphans(p, orphans);
    // The check found p bad: only a polygon that lost orphan holes needs checking again (a check
    // of a mainland with its lakes is a good part of its repair).
    PolygonValidity.Report again = rest == p ? null : PolygonValidity.check(rest);
    Geometry fixed = rest;
    if (again == null || !again.valid()) {
      boolean shell =
          again == null ? report.shellAtFault().get(index) : again.shellAtFault().get(0);
      fixed = shell ? rest : HoleMerger.merge(rest);
      if (fixed == rest || !PolygonValidity.check(fixed).valid()) {
        // Rings meet only where the check saw them meet: those of the polygon's own check if it
        // lost holes, else the whole geometry's (more points than needed, never fewer).
        List<Coordinate> contacts = (again == null ? report : again).contacts();
        fixed = GeometryRepair.onGrid(RingPolygonizer.rebuild(rest, contacts), precision);
      }
      if (fixed.isEmpty() || !PolygonValidity.check(fixed).valid()) {
        fixed = GeometryRepair.onGrid(GeometryFixer.fix(rest), precision);
      }
    }
    List<Polygon> out = new ArrayList<>();
    for (int k = 0; k < fixed.getNumGeometries(); k++) {
      if (fixed.getGeometryN(k) instanceof Polygon q && !q.isEmpty()) {
        out.add(q);
      }
    }
    return out;
  }

  /** The polygon without the holes that lie outside its shell, which go to {@code orphans}. */
  private static Polygon withoutOrphans(Polygon p, List<LinearRing> orphans) {
    if (p.getNumInteriorRing() == 0) {
      return p;
    }
    GeometryFactory f = p.getFactory();
    RingLocator shell = RingLocator.of(p.getExteriorRing());
    List<LinearRing> kept = new ArrayList<>();
    for (int h = 0; h < p.getNumInteriorRing(); h++) {
      LinearRing hole = p.getInteriorRingN(h);
      if (shell.locate(hole) == Location.EXTERIOR) {
        orphans.add(hole);
      } else {
        kept.add(hole);
      }
    }
    return kept.size() == p.getNumInteriorRing()
        ? p
        : f.createPolygon(p.getExteriorRing(), kept.toArray(LinearRing[]::new));
  }

  /**
   * The polygons with each orphan hole added to the one whose area holds it; an orphan in no
   * polygon cuts nothing and is dropped.
   */
  private static List<Polygon> adopt(
      List<Polygon> polygons, List<LinearRing> orphans, GeometryFactory f) {
    if (orphans.isEmpty()) {
      return polygons;
    }
    STRtree index = new STRtree();
    for (int i = 0; i < polygons.size(); i++) {
      index.insert(polygons.get(i).getEnvelopeInternal(), i);
    }
    Map<Integer, List<LinearRing>> adopted = new TreeMap<>();
    // Each polygon here is valid, so its holes lie inside its shell.
    Map<Integer, AreaLocator> located = new java.util.HashMap<>();
    for (LinearRing hole : orphans) {
      for (Object o : index.query(hole.getEnvelopeInternal())) {
        int i = (Integer) o;
        if (!polygons.get(i).getEnvelopeInternal().covers(hole.getEnvelopeInternal())) {
          continue;
        }
        AreaLocator area = located.computeIfAbsent(i, k -> AreaLocator.of(polygons.get(k)));
        if (area.locate(hole) == Location.INTERIOR) {
          adopted.computeIfAbsent(i, k -> new ArrayList<>()).add(hole);
          break;
        }
      }
    }
    List<Polygon> out = new ArrayList<>(polygons);
    adopted.forEach(
        (i, holes) -> {
          Polygon p = polygons.get(i);
          List<LinearRing> all = new ArrayList<>();
          for (int h = 0; h < p.getNumInteriorRing(); h++) {
            all.add(p.getInteriorRingN(h));
          }
          all.addAll(holes);
          out.set(i, f.createPolygon(p.getExteriorRing(), all.toArray(LinearRing[]::new)));
        });
    return out;
  }

  /**
   * The polygons with every group of overlapping ones (by the pairs the check found, between the
   * {@code originals} polygons of the original geometry) replaced by its union. A pair may name a
   * polygon that left no part (nested in another, or fixed into nothing): it still joins the groups
   * on both its sides.
   */
  private List<Polygon> mergeOverlapping(
      List<Polygon> polygons, List<Integer> origin, int originals, List<int[]> overlapping) {
    if (overlapping.isEmpty()) {
      return polygons;
    }
    int[] parent = new int[originals];
    for (int i = 0; i < originals; i++) {
      parent[i] = i;
    }
    for (int[] pair : overlapping) {
      parent[UnionFind.root(parent, pair[0])] = UnionFind.root(parent, pair[1]);
    }
    Map<Integer, List<Polygon>> groups = new TreeMap<>();
    for (int k = 0; k < polygons.size(); k++) {
      groups
          .computeIfAbsent(UnionFind.root(parent, origin.get(k)), x -> new ArrayList<>())
          .add(polygons.get(k));
    }
    List<Polygon> out = new ArrayList<>();
    for (List<Polygon> group : groups.values()) {
      if (group.size() == 1) {
        out.add(group.get(0));
        continue;
      }
      out.addAll(union(group));
    }
    return out;
  }

  /**
   * The union of a group of overlapping polygons, as polygons. A hole whose box meets no other
   * polygon of the group is left out of the overlay and put back into the part that holds it after:
   * no other polygon can reach into it, so it stays a hole. A mainland's lakes are most of its
   * points, and an island drawn across its coast meets a few of them at most; the overlay, which
   * builds a graph of every edge it is given, then costs the coast alone.
   */
  private List<Polygon> union(List<Polygon> group) {
    GeometryFactory f = group.get(0).getFactory();
    STRtree boxes = new STRtree();
    for (int k = 0; k < group.size(); k++) {
      boxes.insert(group.get(k).getEnvelopeInternal(), k);
    }
    List<Polygon> reduced = new ArrayList<>(group.size());
    List<LinearRing> aside = new ArrayList<>();
    for (int k = 0; k < group.size(); k++) {
      Polygon p = group.get(k);
      List<LinearRing> kept = new ArrayList<>();
      for (int h = 0; h < p.getNumInteriorRing(); h++) {
        LinearRing hole = p.getInteriorRingN(h);
        if (meetsAnother(boxes, hole.getEnvelopeInternal(), k)) {
          kept.add(hole);
        } else {
          aside.add(hole);
        }
      }
      reduced.add(
          kept.size() == p.getNumInteriorRing()
              ? p
              : f.createPolygon(p.getExteriorRing(), kept.toArray(LinearRing[]::new)));
    }
    Geometry union =
        GeometryRepair.onGrid(OverlayNGRobust.union(f.buildGeometry(reduced)), precision);
    List<Polygon> parts = new ArrayList<>();
    for (int k = 0; k < union.getNumGeometries(); k++) {
      if (union.getGeometryN(k) instanceof Polygon q && !q.isEmpty()) {
        parts.add(q);
      }
    }
    return adopt(parts, aside, f);
  }

  /** Whether {@code box} meets the box of a polygon of the group other than {@code self}. */
  private static boolean meetsAnother(STRtree boxes, Envelope box, int self) {
    boolean[] meets = {false};
    boxes.query(
        box,
        item -> {
          if ((Integer) item != self) {
            meets[0] = true;
          }
        });
    return meets[0];
  }
}
