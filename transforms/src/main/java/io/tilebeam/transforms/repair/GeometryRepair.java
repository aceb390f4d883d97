package io.tilebeam.transforms.repair;

import io.tilebeam.transforms.outcome.TileDataException;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.PrecisionModel;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.locationtech.jts.precision.GeometryPrecisionReducer;

/**
 * Checks a geometry and repairs it only when the check fails, cheapest fix first:
 *
 * <ol>
 *   <li><b>valid</b>: nothing to do (almost every piece);
 *   <li><b>cleaned</b>: spikes removed (a vertex the ring goes out to and straight back from, which
 *       rounding can make of a thin sliver) and rings left without area dropped, in one pass;
 *   <li><b>split</b>: rings that pass twice through a vertex split there ({@link
 *       SelfTouchSplitter}), in one pass: the commonest invalidity of real data;
 *   <li><b>components</b>: each invalid polygon fixed alone and only overlapping polygons merged
 *       ({@link ComponentFixer}), so a bad lake does not cost a union of twenty thousand islands;
 *   <li><b>fixed</b>: JTS's {@link GeometryFixer} over the whole piece (keeps every part of a
 *       self-crossing ring), then snap-rounded back onto the precision grid, which keeps the result
 *       valid there.
 * </ol>
 *
 * A geometry no rung can make valid and non-empty is a {@link TileDataException} for the dead
 * letter. A repair {@link #onGrid} keeps what it makes on a precision grid (for finished pieces,
 * already rounded); a {@link #floating} one does not (for source features before cutting).
 */
public final class GeometryRepair {

  /** Which rung made the geometry valid. */
  public enum Rung {
    VALID,
    CLEANED,
    SPLIT,
    COMPONENTS,
    FIXED,
    /**
     * Not checked: the geometry was cut as its rings wind ({@link
     * io.tilebeam.transforms.cut.CutSpec#woundPieces}), and each piece is made valid where it is
     * finished.
     */
    WOUND;

    /** Whether only spikes were removed: a rounding artefact, not a fault of the data. */
    public boolean cleaned() {
      return this == CLEANED;
    }

    /** Whether the topology had to be repaired (split, rebuilt or fixed). */
    public boolean repaired() {
      return this == SPLIT || this == COMPONENTS || this == FIXED;
    }
  }

  /** A valid geometry and how it became valid. */
  public record Repaired(Geometry geometry, Rung rung) {}

  private final PrecisionModel precision;
  private final ComponentFixer components;

  private GeometryRepair(PrecisionModel precision) {
    this.precision = precision;
    this.components = new ComponentFixer(precision);
  }

  /** Passes of the component fixer before the last rung. */
  private static final int COMPONENT_PASSES = 4;

  /** A repair whose results lie on the grid of {@code digits} decimal places. */
  public static GeometryRepair onGrid(int digits) {
    return new GeometryRepair(new PrecisionModel(Math.pow(10, digits)));
  }

  /** A repair in full floating precision. */
  public static GeometryRepair floating() {
    return new GeometryRepair(new PrecisionModel());
  }

  /** Whether the geometry is a polygon or a multi-polygon. */
  public static boolean isPolygonal(Geometry g) {
    return g instanceof Polygon || g instanceof org.locationtech.jts.geom.MultiPolygon;
  }

  /**
   * The geometry, valid: itself when it already is, else repaired by the first rung that works.
   *
   * @throws TileDataException when no rung can make it valid and non-empty
   */
  public Repaired repair(Geometry g) throws TileDataException {
    if (!isPolygonal(g)) {
      return repairOther(g);
    }
    // Each check walks every vertex, so a rung that changed nothing is not checked again, and the
    // last check's report tells the component fixer where the faults are.
    PolygonValidity.Report report = PolygonValidity.check(g);
    if (report.valid()) {
      return new Repaired(g, Rung.VALID);
    }
    Geometry cleaned = new SpikeRemover().transform(g);
    boolean spikes = cleaned.getNumPoints() != g.getNumPoints();
    // A ring the splitter changes was not valid with its spikes gone either: one check after both
    // (a mainland's check is a good part of its repair) says which rung made it valid.
    // Removing spikes only takes points away: every ring that still meets itself does so at a
    // point the check found.
    Geometry split = SelfTouchSplitter.split(cleaned, report);
    if (spikes || split != cleaned) {
      report = PolygonValidity.check(split);
      if (!split.isEmpty() && report.valid()) {
        return new Repaired(split, split == cleaned ? Rung.CLEANED : Rung.SPLIT);
      }
    }
    if (!split.isEmpty()) {
      // Merging overlapping components and snapping the merge to the grid can leave a few new
      // faults among thousands of components (a country's islands at a low zoom): a further pass
      // over what is left costs little, the last rung over everything can take minutes.
      Geometry current = split;
      PolygonValidity.Report faults = report;
      for (int pass = 0; pass < COMPONENT_PASSES; pass++) {
        ComponentFixer.Fixed byComponent = components.fix(current, faults);
        if (byComponent.geometry().isEmpty()) {
          break;
        }
        if (byComponent.report().valid()) {
          return new Repaired(byComponent.geometry(), Rung.COMPONENTS);
        }
        current = byComponent.geometry();
        faults = byComponent.report();
      }
    }
    return lastRung(g);
  }

  /** Points and lines: valid, or fixed by the last rung. */
  private Repaired repairOther(Geometry g) throws TileDataException {
    return g.isValid() ? new Repaired(g, Rung.VALID) : lastRung(g);
  }

  private Repaired lastRung(Geometry g) throws TileDataException {
    Geometry fixed = onGrid(GeometryFixer.fix(g), precision);
    if (!fixed.isEmpty() && valid(fixed)) {
      return new Repaired(fixed, Rung.FIXED);
    }
    throw new TileDataException(
        "geometry", "invalid " + g.getGeometryType() + " beyond repair: " + problem(g), null);
  }

  /** Whether the geometry is valid; polygons by {@link PolygonValidity}, which scales. */
  public static boolean valid(Geometry g) {
    return isPolygonal(g) ? PolygonValidity.check(g).valid() : g.isValid();
  }

  private static String problem(Geometry g) {
    return isPolygonal(g)
        ? PolygonValidity.check(g).problem()
        : String.valueOf(new IsValidOp(g).getValidationError());
  }

  /** The geometry snap-rounded onto the grid, unless the grid is floating. */
  static Geometry onGrid(Geometry g, PrecisionModel precision) {
    return precision.isFloating() ? g : GeometryPrecisionReducer.reduce(g, precision);
  }
}
