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
      op = builtinOperation(source, target);
      if (op == null) {
        op = databaseOperation(source, target);
      }
      OPERATIONS.put(key, op);
    }
    return op;
  }

  /**
   * Whether the operation from {@code source} to {@code target} is known to be built in ({@link
   * BuiltinCrs}): a process that has the fact in its memo never opens the EPSG database for it.
   */
  public static boolean builtIn(CrsRef source, CrsRef target) {
    return SAME.equals(CrsMemo.known(builtinKey(source, target)));
  }

  private static final String SAME = "same";

  private static String builtinKey(CrsRef source, CrsRef target) {
    return "builtin-operation:" + source.definition() + "\u0000" + target.definition();
  }

  /**
   * The operation between two built-in CRSs, once the memo holds the fact that it computes as the
   * database's (checked against it the first time); else null.
   */
  private static CoordinateOperation builtinOperation(CrsRef source, CrsRef target) {
    CoordinateReferenceSystem s = BuiltinCrs.of(source.definition());
    CoordinateReferenceSystem t = BuiltinCrs.of(target.definition());
    if (s == null || t == null) {
      return null;
    }
    CoordinateOperation builtin;
    try {
      builtin = BuiltinCrs.operation(s, t);
    } catch (FactoryException e) {
      return null;
    }
    String fact =
        CrsMemo.get(
            builtinKey(source, target),
            () -> BuiltinCrs.sameAs(databaseOperation(source, target), builtin) ? SAME : "differs");
    return fact.equals(SAME) ? builtin : null;
  }

  /** The operation SIS finds between the two CRSs as its EPSG database defines them. */
  private static CoordinateOperation databaseOperation(CrsRef source, CrsRef target) {
    CoordinateReferenceSystem s = CrsResolver.resolve(source.definition());
    CoordinateReferenceSystem t = CrsResolver.resolve(target.definition());
    try {
      return CRS.findOperation(s, t, null);
    } catch (FactoryException e) {
      throw new UnknownCrsException(source.definition() + " -> " + target.definition(), e);
    }
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
