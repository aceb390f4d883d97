package io.tilebeam.transforms.feature;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.AffineTransformation;

/**
 * Puts longitude/latitude geometries that cross the antimeridian on both sides of it. A source may
 * cross ±180° in two ways: with longitudes beyond ±180 (a ring from 170 to 190), or with a jump (a
 * ring going from 179 to -179, meaning the short way across). Both are read as the short way: the
 * longitudes of each component are unwrapped so that consecutive positions are never more than 180°
 * apart, and the component is then cut at ±180 and its pieces moved into [-180, 180]. A geometry
 * that needs none of this is returned as it is (the same instance).
 */
public final class Antimeridian {

  private static final double[] SHIFTS = {0, -360, 360};

  private Antimeridian() {}

  /** Whether geometries in {@code crs} have longitudes to wrap: a geographic CRS in degrees. */
  public static boolean appliesTo(io.tilebeam.transforms.crs.CrsRef crs) {
    return io.tilebeam.transforms.crs.CrsFacts.geographicInDegrees(crs);
  }

  /**
   * The geometry with every crossing component split at ±180°.
   *
   * @throws IllegalArgumentException when a ring cannot be split: one that circles a pole
   */
  public static Geometry split(Geometry g) {
    if (g.isEmpty() || !needsWork(g)) {
      return g;
    }
    GeometryFactory f = g.getFactory();
    List<Geometry> pieces = new ArrayList<>();
    collectPieces(g, f, pieces);
    return f.buildGeometry(pieces);
  }

  private static void collectPieces(Geometry g, GeometryFactory f, List<Geometry> into) {
    for (int i = 0; i < g.getNumGeometries(); i++) {
      Geometry part = g.getGeometryN(i);
      if (part instanceof GeometryCollection) {
        collectPieces(part, f, into);
        continue;
      }
      Geometry cut = cut(unwrap(part, f));
      for (int k = 0; k < cut.getNumGeometries(); k++) {
        if (!cut.getGeometryN(k).isEmpty()) {
          into.add(cut.getGeometryN(k));
        }
      }
    }
  }

  /** Whether any longitude is beyond ±180 or any step between positions jumps more than 180°. */
  private static boolean needsWork(Geometry g) {
    Envelope e = g.getEnvelopeInternal();
    if (e.getMinX() < -180 || e.getMaxX() > 180) {
      return true;
    }
    boolean[] jump = {false};
    g.apply((org.locationtech.jts.geom.CoordinateSequenceFilter) new JumpFilter(jump));
    return jump[0];
  }

  /** Cuts a single, unwrapped component at ±180 and brings the pieces into [-180, 180]. */
  private static Geometry cut(Geometry unwrapped) {
    GeometryFactory f = unwrapped.getFactory();
    List<Geometry> pieces = new ArrayList<>();
    for (double shift : SHIFTS) {
      // The window [-180, 180] seen from the component's frame: [-180 - shift, 180 - shift].
      Geometry window = f.toGeometry(new Envelope(-180 - shift, 180 - shift, -90, 90));
      Geometry piece = unwrapped.intersection(window);
      if (!piece.isEmpty()) {
        pieces.add(AffineTransformation.translationInstance(shift, 0).transform(piece));
      }
    }
    return f.buildGeometry(pieces);
  }

  /**
   * The component with longitudes made continuous (no step over 180°), holes in the shell's frame.
   */
  private static Geometry unwrap(Geometry g, GeometryFactory f) {
    if (g instanceof Point) {
      Coordinate c = g.getCoordinate().copy();
      c.x = wrap(c.x);
      return f.createPoint(c);
    }
    if (g instanceof Polygon p && p.isEmpty()) {
      return p;
    }
    if (g instanceof LineString line && !(g instanceof LinearRing)) {
      return f.createLineString(unwrap(line.getCoordinates(), Double.NaN));
    }
    if (g instanceof Polygon p) {
      Coordinate[] shell = closedRing(unwrap(p.getExteriorRing().getCoordinates(), Double.NaN));
      LinearRing[] holes = new LinearRing[p.getNumInteriorRing()];
      for (int i = 0; i < holes.length; i++) {
        holes[i] =
            f.createLinearRing(
                closedRing(unwrap(p.getInteriorRingN(i).getCoordinates(), shell[0].x)));
      }
      return f.createPolygon(f.createLinearRing(shell), holes);
    }
    return g;
  }

  /**
   * Longitudes made continuous from the first (moved within 180° of {@code anchor} when given), so
   * that a closed ring stays closed.
   */
  private static Coordinate[] unwrap(Coordinate[] in, double anchor) {
    Coordinate[] out = new Coordinate[in.length];
    double previous = Double.isNaN(anchor) ? in[0].x : anchor;
    for (int i = 0; i < in.length; i++) {
      Coordinate c = in[i].copy();
      while (c.x - previous > 180) {
        c.x -= 360;
      }
      while (c.x - previous < -180) {
        c.x += 360;
      }
      previous = c.x;
      out[i] = c;
    }
    return out;
  }

  private static Coordinate[] closedRing(Coordinate[] ring) {
    if (!ring[0].equals2D(ring[ring.length - 1])) {
      throw new IllegalArgumentException(
          "a ring goes once around the globe (it circles a pole): it cannot be split at the"
              + " antimeridian; give the pole's edge explicitly");
    }
    return ring;
  }

  private static double wrap(double lon) {
    double x = ((lon + 180) % 360 + 360) % 360 - 180;
    return x == -180 && lon > 0 ? 180 : x;
  }

  /** Finds a step of more than 180° between consecutive positions of a sequence. */
  private static final class JumpFilter
      implements org.locationtech.jts.geom.CoordinateSequenceFilter {
    private final boolean[] jump;

    JumpFilter(boolean[] jump) {
      this.jump = jump;
    }

    @Override
    public void filter(org.locationtech.jts.geom.CoordinateSequence seq, int i) {
      if (i > 0 && Math.abs(seq.getX(i) - seq.getX(i - 1)) > 180) {
        jump[0] = true;
      }
    }

    @Override
    public boolean isDone() {
      return jump[0];
    }

    @Override
    public boolean isGeometryChanged() {
      return false;
    }
  }
}
