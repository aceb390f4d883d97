package io.tilebeam.transforms.crs;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sis.geometry.Envelopes;
import org.apache.sis.geometry.GeneralEnvelope;
import org.apache.sis.measure.Units;
import org.apache.sis.metadata.iso.extent.DefaultExtent;
import org.apache.sis.metadata.iso.extent.DefaultGeographicBoundingBox;
import org.apache.sis.metadata.iso.extent.Extents;
import org.apache.sis.referencing.CRS;
import org.apache.sis.referencing.crs.DefaultGeographicCRS;
import org.apache.sis.referencing.crs.DefaultProjectedCRS;
import org.apache.sis.referencing.cs.DefaultCartesianCS;
import org.apache.sis.referencing.cs.DefaultCoordinateSystemAxis;
import org.apache.sis.referencing.cs.DefaultEllipsoidalCS;
import org.apache.sis.referencing.datum.DefaultEllipsoid;
import org.apache.sis.referencing.datum.DefaultGeodeticDatum;
import org.apache.sis.referencing.datum.DefaultPrimeMeridian;
import org.apache.sis.referencing.operation.CoordinateOperationFinder;
import org.apache.sis.referencing.operation.DefaultConversion;
import org.apache.sis.referencing.operation.DefaultCoordinateOperationFactory;
import org.apache.sis.referencing.operation.transform.DefaultMathTransformFactory;
import org.apache.sis.util.ComparisonMode;
import org.apache.sis.util.Utilities;
import org.opengis.geometry.Envelope;
import org.opengis.metadata.extent.Extent;
import org.opengis.parameter.ParameterValueGroup;
import org.opengis.referencing.IdentifiedObject;
import org.opengis.referencing.ReferenceSystem;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.crs.ProjectedCRS;
import org.opengis.referencing.cs.AxisDirection;
import org.opengis.referencing.cs.RangeMeaning;
import org.opengis.referencing.operation.CoordinateOperation;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.NoninvertibleTransformException;
import org.opengis.referencing.operation.OperationMethod;
import org.opengis.referencing.operation.TransformException;
import org.opengis.util.FactoryException;

/**
 * WGS 84 longitude/latitude ({@code CRS:84}, and {@code EPSG:4326} in east/north order), Web
 * Mercator ({@code EPSG:3857}) and UTM on WGS 84 ({@code EPSG:32601}–{@code 32660}, {@code
 * 32701}–{@code 32760}) built from their defining parameters, and the operations between them found
 * without SIS's EPSG database.
 *
 * <p>Opening that database (Derby, its SQL compiled in a cold JVM) costs every run 1.5–3 CPU-s and
 * about a second of wall time on two cores, though most vector jobs read and write only these CRSs.
 * The database stays the authority: a built-in operation is used only where {@link CrsTransforms}
 * holds the fact, checked once against the database by {@link #sameAs}, that it computes what the
 * database's does, bit for bit.
 */
final class BuiltinCrs {

  /** WGS 84 longitude/latitude, and the easting/northing axes of the projected CRSs. */
  private record Base(DefaultGeographicCRS wgs84, DefaultCartesianCS eastNorth) {}

  /** Null when SIS cannot build it: every CRS then comes from the database, as before. */
  private static final Base BASE = base();

  /** Each CRS built once, when first asked for. */
  private static final Map<String, CoordinateReferenceSystem> BUILT = new ConcurrentHashMap<>();

  private BuiltinCrs() {}

  /** The built-in CRS of a definition ({@code CRS:84}, {@code EPSG:4326}, ...), else null. */
  static CoordinateReferenceSystem of(String definition) {
    return BASE == null ? null : BUILT.computeIfAbsent(definition, BuiltinCrs::build);
  }

  /**
   * The operation from {@code source} to {@code target} as SIS derives it from their definitions
   * alone, without looking for one registered in the EPSG database.
   */
  static CoordinateOperation operation(
      CoordinateReferenceSystem source, CoordinateReferenceSystem target) throws FactoryException {
    return new CoordinateOperationFinder(null, DefaultCoordinateOperationFactory.provider(), null)
        .createOperation(source, target);
  }

  /**
   * Whether {@code builtin} computes what {@code database} does: the same transform and inverse
   * (SIS compares their parameters exactly), the same axes at both ends (directions, units, ranges
   * and their wrap-around), the same domains of validity, and the same boxes from the envelope
   * transform that plans tiles (the source's domain and a box in its middle).
   */
  static boolean sameAs(CoordinateOperation database, CoordinateOperation builtin) {
    try {
      MathTransform d = database.getMathTransform();
      MathTransform b = builtin.getMathTransform();
      return d.equals(b)
          && inverse(d).equals(inverse(b))
          && sameEnds(database.getSourceCRS(), builtin.getSourceCRS())
          && sameEnds(database.getTargetCRS(), builtin.getTargetCRS())
          && sameBoxes(database, builtin);
    } catch (TransformException | RuntimeException e) {
      return false;
    }
  }

  private static Object inverse(MathTransform t) {
    try {
      return t.inverse();
    } catch (NoninvertibleTransformException e) {
      return "no inverse";
    }
  }

  private static boolean sameEnds(CoordinateReferenceSystem d, CoordinateReferenceSystem b) {
    return (d instanceof GeographicCRS) == (b instanceof GeographicCRS)
        && (d instanceof ProjectedCRS) == (b instanceof ProjectedCRS)
        && Utilities.deepEquals(
            d.getCoordinateSystem(), b.getCoordinateSystem(), ComparisonMode.IGNORE_METADATA)
        && same(CRS.getDomainOfValidity(d), CRS.getDomainOfValidity(b));
  }

  private static boolean sameBoxes(CoordinateOperation d, CoordinateOperation b)
      throws TransformException {
    Envelope domain = CRS.getDomainOfValidity(d.getSourceCRS());
    if (domain == null) {
      return true;
    }
    GeneralEnvelope middle = new GeneralEnvelope(domain);
    for (int i = 0; i < 2; i++) {
      double centre = middle.getMedian(i);
      double half = middle.getSpan(i) / 20;
      middle.setRange(i, centre - half, centre + half);
    }
    for (Envelope box : new Envelope[] {domain, middle}) {
      if (!same(transform(d, box), transform(b, box))) {
        return false;
      }
    }
    return true;
  }

  private static Envelope transform(CoordinateOperation op, Envelope box)
      throws TransformException {
    GeneralEnvelope in = new GeneralEnvelope(op.getSourceCRS());
    for (int i = 0; i < 2; i++) {
      in.setRange(i, box.getMinimum(i), box.getMaximum(i));
    }
    return Envelopes.transform(op, in);
  }

  /** Envelopes with the same coordinates, exactly (their CRSs are compared apart). */
  private static boolean same(Envelope a, Envelope b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.getDimension() != b.getDimension()) {
      return false;
    }
    for (int i = 0; i < a.getDimension(); i++) {
      if (Double.compare(a.getMinimum(i), b.getMinimum(i)) != 0
          || Double.compare(a.getMaximum(i), b.getMaximum(i)) != 0) {
        return false;
      }
    }
    return true;
  }

  private static Base base() {
    try {
      DefaultEllipsoid ellipsoid =
          DefaultEllipsoid.createFlattenedSphere(
              named("WGS 84"), 6378137, 298.257223563, Units.METRE);
      DefaultPrimeMeridian greenwich =
          new DefaultPrimeMeridian(named("Greenwich"), 0, Units.DEGREE);
      DefaultGeodeticDatum datum =
          new DefaultGeodeticDatum(named("World Geodetic System 1984"), ellipsoid, greenwich);
      DefaultEllipsoidalCS lonLat =
          new DefaultEllipsoidalCS(
              named("Ellipsoidal CS: E,N."),
              axis("Geodetic longitude", "Lon", AxisDirection.EAST, -180, 180, true),
              axis("Geodetic latitude", "Lat", AxisDirection.NORTH, -90, 90, false));
      DefaultCartesianCS eastNorth =
          new DefaultCartesianCS(
              named("Cartesian CS: E,N."),
              new DefaultCoordinateSystemAxis(
                  named("Easting"), "X", AxisDirection.EAST, Units.METRE),
              new DefaultCoordinateSystemAxis(
                  named("Northing"), "Y", AxisDirection.NORTH, Units.METRE));
      return new Base(
          new DefaultGeographicCRS(withDomain("WGS 84", Extents.WORLD), datum, null, lonLat),
          eastNorth);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The CRS a definition names, built; null when it is none of the built-in ones. */
  private static CoordinateReferenceSystem build(String definition) {
    try {
      switch (definition) {
        case "CRS:84", "EPSG:4326":
          return BASE.wgs84();
        case "EPSG:3857":
          // The method's parameters at their defaults: all zero, as EPSG:3857 has them. The
          // domain is EPSG's own, as its database gives it.
          OperationMethod pseudoMercator = method("Popular Visualisation Pseudo Mercator");
          return projected(
              "WGS 84 / Pseudo-Mercator",
              pseudoMercator,
              pseudoMercator.getParameters().createValue(),
              -180,
              180,
              -85.06,
              85.06);
        default:
          return utm(definition);
      }
    } catch (FactoryException | RuntimeException e) {
      return null;
    }
  }

  /**
   * UTM on WGS 84, zones 1-60 north ({@code EPSG:32601}-{@code 32660}) and south ({@code
   * 32701}-{@code 32760}); else null. A zone whose domain EPSG draws otherwise (29N reaches 12°W)
   * fails the check and stays with the database.
   */
  private static CoordinateReferenceSystem utm(String definition) throws FactoryException {
    if (!definition.matches("EPSG:32[67][0-6][0-9]")) {
      return null;
    }
    int code = Integer.parseInt(definition.substring(5));
    int zone = code % 100;
    if (zone < 1 || zone > 60) {
      return null;
    }
    boolean north = code < 32700;
    double centralMeridian = zone * 6 - 183;
    OperationMethod transverseMercator = method("Transverse Mercator");
    ParameterValueGroup p = transverseMercator.getParameters().createValue();
    p.parameter("Longitude of natural origin").setValue(centralMeridian);
    p.parameter("Scale factor at natural origin").setValue(0.9996);
    p.parameter("False easting").setValue(500000.0);
    p.parameter("False northing").setValue(north ? 0.0 : 10000000.0);
    return projected(
        "WGS 84 / UTM zone " + zone + (north ? "N" : "S"),
        transverseMercator,
        p,
        centralMeridian - 3,
        centralMeridian + 3,
        north ? 0 : -80,
        north ? 84 : 0);
  }

  private static OperationMethod method(String name) throws FactoryException {
    return DefaultMathTransformFactory.provider().getOperationMethod(name);
  }

  /**
   * A projected CRS on WGS 84 by {@code method} with {@code parameters}, valid in the given
   * degrees.
   */
  private static DefaultProjectedCRS projected(
      String name,
      OperationMethod method,
      ParameterValueGroup parameters,
      double west,
      double east,
      double south,
      double north) {
    Extent domain =
        new DefaultExtent(
            null, new DefaultGeographicBoundingBox(west, east, south, north), null, null);
    DefaultConversion conversion = new DefaultConversion(named(name), method, null, parameters);
    return new DefaultProjectedCRS(
        withDomain(name, domain), BASE.wgs84(), conversion, BASE.eastNorth());
  }

  private static Map<String, Object> named(String name) {
    return Map.of(IdentifiedObject.NAME_KEY, name);
  }

  private static Map<String, Object> withDomain(String name, Extent domain) {
    Map<String, Object> p = new HashMap<>(named(name));
    p.put(ReferenceSystem.DOMAIN_OF_VALIDITY_KEY, domain);
    return p;
  }

  private static DefaultCoordinateSystemAxis axis(
      String name,
      String abbreviation,
      AxisDirection direction,
      double min,
      double max,
      boolean wraps) {
    Map<String, Object> p = new HashMap<>(named(name));
    p.put(DefaultCoordinateSystemAxis.MINIMUM_VALUE_KEY, min);
    p.put(DefaultCoordinateSystemAxis.MAXIMUM_VALUE_KEY, max);
    p.put(
        DefaultCoordinateSystemAxis.RANGE_MEANING_KEY,
        wraps ? RangeMeaning.WRAPAROUND : RangeMeaning.EXACT);
    return new DefaultCoordinateSystemAxis(p, abbreviation, direction, Units.DEGREE);
  }
}
