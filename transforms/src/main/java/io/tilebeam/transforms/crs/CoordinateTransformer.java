package io.tilebeam.transforms.crs;

import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Geometry;
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
   * Checks every coordinate where it is, in the order of {@code getCoordinates()} (which would copy
   * a polygon's points into one new array): JTS's walk of each part's own sequence, stopped at the
   * first coordinate that is not finite.
   */
  private static void requireFinite(Geometry g) throws TransformException {
    NotFinite first = new NotFinite();
    g.apply(first);
    if (first.isDone()) {
      requireFinite(first.x, first.y);
    }
  }

  /** Finds the first coordinate that is not finite. */
  private static final class NotFinite implements CoordinateSequenceFilter {
    private double x;
    private double y;
    private boolean found;

    @Override
    public void filter(CoordinateSequence s, int i) {
      double cx = s.getX(i);
      double cy = s.getY(i);
      if (!Double.isFinite(cx) || !Double.isFinite(cy)) {
        x = cx;
        y = cy;
        found = true;
      }
    }

    @Override
    public boolean isDone() {
      return found;
    }

    @Override
    public boolean isGeometryChanged() {
      return false;
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
