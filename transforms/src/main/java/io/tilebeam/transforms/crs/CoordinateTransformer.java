package io.tilebeam.transforms.crs;

import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.util.GeometryTransformer;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.TransformException;

/**
 * Applies an SIS {@link MathTransform} to a JTS geometry, one coordinate sequence at a time (SIS
 * transforms arrays far faster than single points). Both CRSs are east/north.
 */
public final class CoordinateTransformer {

  private final MathTransform transform;

  /** A transformer for {@code transform}, which must be two-dimensional. */
  public CoordinateTransformer(MathTransform transform) {
    if (transform.getSourceDimensions() != 2 || transform.getTargetDimensions() != 2) {
      throw new IllegalArgumentException("only 2D transforms are supported: " + transform);
    }
    this.transform = transform;
  }

  /**
   * The geometry in the target CRS.
   *
   * @throws TransformException when a coordinate cannot be transformed, or is not finite (in the
   *     input of an identity, or in the output: a pole in Web Mercator)
   */
  public Geometry apply(Geometry geometry) throws TransformException {
    if (transform.isIdentity()) {
      requireFinite(geometry);
      return geometry;
    }
    try {
      return new SequenceTransformer().transform(geometry);
    } catch (Wrapped w) {
      throw w.cause;
    }
  }

  private final class SequenceTransformer extends GeometryTransformer {
    @Override
    protected CoordinateSequence transformCoordinates(CoordinateSequence seq, Geometry parent) {
      int n = seq.size();
      double[] xy = new double[n * 2];
      for (int i = 0; i < n; i++) {
        xy[2 * i] = seq.getX(i);
        xy[2 * i + 1] = seq.getY(i);
      }
      CoordinateSequence out = seq.copy();
      try {
        transform.transform(xy, 0, xy, 0, n);
        for (int i = 0; i < n; i++) {
          requireFinite(xy[2 * i], xy[2 * i + 1]);
          out.setOrdinate(i, 0, xy[2 * i]);
          out.setOrdinate(i, 1, xy[2 * i + 1]);
        }
      } catch (TransformException e) {
        throw new Wrapped(e);
      }
      return out;
    }
  }

  /**
   * Checks every coordinate, part by part in the order of {@code getCoordinates()}, reading each
   * part's own sequence (that method would copy the points of a polygon into one new array).
   */
  private static void requireFinite(Geometry g) throws TransformException {
    if (g instanceof Polygon p) {
      requireFinite(p.getExteriorRing().getCoordinateSequence());
      for (int i = 0; i < p.getNumInteriorRing(); i++) {
        requireFinite(p.getInteriorRingN(i).getCoordinateSequence());
      }
    } else if (g instanceof LineString l) {
      requireFinite(l.getCoordinateSequence());
    } else if (g instanceof Point p) {
      requireFinite(p.getCoordinateSequence());
    } else if (g instanceof GeometryCollection c) {
      for (int i = 0; i < c.getNumGeometries(); i++) {
        requireFinite(c.getGeometryN(i));
      }
    }
  }

  private static void requireFinite(CoordinateSequence s) throws TransformException {
    for (int i = 0; i < s.size(); i++) {
      requireFinite(s.getX(i), s.getY(i));
    }
  }

  private static void requireFinite(double x, double y) throws TransformException {
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new TransformException("a coordinate is not finite: (" + x + ", " + y + ")");
    }
  }

  /** Carries a checked exception out of JTS's transformer, which cannot throw one. */
  private static final class Wrapped extends RuntimeException {
    final TransformException cause;

    Wrapped(TransformException cause) {
      super(cause);
      this.cause = cause;
    }
  }
}
