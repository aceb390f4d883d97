package io.tilebeam.transforms.crs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sis.geometry.Envelopes;
import org.apache.sis.geometry.GeneralEnvelope;
import org.apache.sis.referencing.CRS;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.operation.CoordinateOperation;
import org.opengis.referencing.operation.TransformException;
import org.opengis.util.FactoryException;

/**
 * Coordinate operations between two CRSs, found once per pair and cached. Both ends are east/north
 * (see {@link CrsResolver}).
 */
public final class CrsTransforms {

  private static final Map<String, CoordinateOperation> OPERATIONS = new ConcurrentHashMap<>();

  private CrsTransforms() {}

  /**
   * The operation from {@code source} to {@code target}, each given by its definition.
   *
   * @throws UnknownCrsException when either CRS cannot be read or SIS finds no operation
   */
  public static CoordinateOperation operation(CrsRef source, CrsRef target) {
    String key = source.definition() + "\u0000" + target.definition();
    CoordinateOperation op = OPERATIONS.get(key);
    if (op == null) {
      CoordinateReferenceSystem s = CrsResolver.resolve(source.definition());
      CoordinateReferenceSystem t = CrsResolver.resolve(target.definition());
      try {
        op = CRS.findOperation(s, t, null);
      } catch (FactoryException e) {
        throw new UnknownCrsException(source.definition() + " -> " + target.definition(), e);
      }
      OPERATIONS.put(key, op);
    }
    return op;
  }

  /**
   * Transforms a box with SIS's curvature-aware envelope transform: the result contains the whole
   * transformed box, including the extreme points that lie between its corners. A result that wraps
   * around the antimeridian of a geographic target comes back as two boxes, east part first.
   *
   * @throws TransformException when the box cannot be transformed
   */
  public static List<Bounds> transform(Bounds box, CrsRef source, CrsRef target)
      throws TransformException {
    if (source.identity().equals(target.identity())) {
      return List.of(box);
    }
    CoordinateOperation op = operation(source, target);
    GeneralEnvelope envelope = new GeneralEnvelope(op.getSourceCRS());
    envelope.setRange(0, box.minX(), box.maxX());
    envelope.setRange(1, box.minY(), box.maxY());
    GeneralEnvelope out = Envelopes.transform(op, envelope);
    double minX = out.getLower(0);
    double maxX = out.getUpper(0);
    double minY = out.getMinimum(1);
    double maxY = out.getMaximum(1);
    if (minX > maxX) {
      // SIS gives lower > upper for an envelope spanning the antimeridian (range meaning
      // WRAPAROUND).
      double span =
          out.getCoordinateReferenceSystem().getCoordinateSystem().getAxis(0).getMaximumValue();
      return List.of(new Bounds(minX, minY, span, maxY), new Bounds(-span, minY, maxX, maxY));
    }
    return List.of(new Bounds(minX, minY, maxX, maxY));
  }
}
