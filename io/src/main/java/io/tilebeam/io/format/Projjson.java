package io.tilebeam.io.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.transforms.crs.CrsMemo;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import javax.measure.Unit;
import org.apache.sis.measure.Units;
import org.apache.sis.metadata.iso.citation.Citations;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.referencing.datum.DatumOrEnsemble;
import org.apache.sis.referencing.datum.DefaultDatumEnsemble;
import org.opengis.metadata.Identifier;
import org.opengis.parameter.GeneralParameterValue;
import org.opengis.parameter.ParameterValue;
import org.opengis.referencing.IdentifiedObject;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.crs.ProjectedCRS;
import org.opengis.referencing.cs.CoordinateSystem;
import org.opengis.referencing.cs.CoordinateSystemAxis;
import org.opengis.referencing.datum.Ellipsoid;
import org.opengis.referencing.datum.GeodeticDatum;
import org.opengis.referencing.operation.Conversion;

/**
 * A CRS as PROJJSON (the JSON encoding of WKT2 that GeoParquet's {@code crs} holds), built from
 * SIS's definition: geographic and projected CRSs, each with its datum, ellipsoid, axes, the
 * projection's method and parameters, and its EPSG code as {@code id} where it has one. The CRS as
 * its authority defines it (EPSG:4326 latitude first): GeoParquet's coordinates are longitude,
 * latitude (x, y) whatever the axes say.
 */
final class Projjson {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private Projjson() {}

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * The PROJJSON of {@code crs}: from the memo beside the jar ({@link CrsMemo}: a function of the
   * jar and the definition alone) when a run of this build wrote it before, so that writing it
   * opens no EPSG database; else built from SIS's definition and remembered.
   *
   * @throws IllegalArgumentException when it is neither geographic nor projected
   */
  static ObjectNode of(CrsRef crs) {
    return CrsMemo.get(
        memoKey(crs),
        () -> build(crs).toString(),
        json -> {
          try {
            return (ObjectNode) MAPPER.readTree(json);
          } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalArgumentException("not a PROJJSON object: " + json, e);
          }
        });
  }

  /** Whether the PROJJSON of {@code crs} is remembered: writing it opens no EPSG database. */
  static boolean known(CrsRef crs) {
    return CrsMemo.known(memoKey(crs)) != null;
  }

  private static String memoKey(CrsRef crs) {
    return "projjson:" + crs.definition();
  }

  private static ObjectNode build(CrsRef crs) {
    CoordinateReferenceSystem c = CrsResolver.parseAsDefined(crs.definition());
    ObjectNode out;
    if (c instanceof ProjectedCRS p) {
      out = projected(p);
    } else if (c instanceof GeographicCRS g) {
      out = geographic(g);
    } else {
      throw new IllegalArgumentException(
          crs.identity() + " is neither geographic nor projected: no PROJJSON written for it");
    }
    ObjectNode withSchema = JSON.objectNode();
    withSchema.put("$schema", "https://proj.org/schemas/v0.7/projjson.schema.json");
    withSchema.setAll(out);
    return withSchema;
  }

  private static ObjectNode geographic(GeographicCRS g) {
    ObjectNode o = JSON.objectNode();
    o.put("type", "GeographicCRS");
    o.put("name", name(g));
    GeodeticDatum datum = DatumOrEnsemble.asDatum(g);
    java.util.Optional<DefaultDatumEnsemble<GeodeticDatum>> ensemble =
        DatumOrEnsemble.asEnsemble(datum);
    if (ensemble.isPresent()) {
      o.set("datum_ensemble", ensemble(ensemble.get(), datum.getEllipsoid()));
    } else {
      o.set("datum", datum(datum));
    }
    o.set("coordinate_system", cs(g.getCoordinateSystem(), "ellipsoidal"));
    id(o, g);
    return o;
  }

  private static ObjectNode projected(ProjectedCRS p) {
    ObjectNode o = JSON.objectNode();
    o.put("type", "ProjectedCRS");
    o.put("name", name(p));
    o.set("base_crs", geographic(p.getBaseCRS()));
    o.set("conversion", conversion(p.getConversionFromBase()));
    o.set("coordinate_system", cs(p.getCoordinateSystem(), "Cartesian"));
    id(o, p);
    return o;
  }

  /**
   * A datum ensemble (EPSG:4326's WGS 84 is one since EPSG 10): its members, ellipsoid and accuracy
   * in metres.
   */
  private static ObjectNode ensemble(DefaultDatumEnsemble<GeodeticDatum> e, Ellipsoid ellipsoid) {
    ObjectNode o = JSON.objectNode();
    o.put("name", name(e));
    ArrayNode members = o.putArray("members");
    for (GeodeticDatum m : e.getMembers()) {
      ObjectNode member = members.addObject();
      member.put("name", name(m));
      id(member, m);
    }
    ellipsoid(o, ellipsoid);
    double accuracy = e.getLinearAccuracy();
    if (Double.isFinite(accuracy)) {
      o.put("accuracy", String.valueOf(accuracy));
    }
    id(o, e);
    return o;
  }

  private static ObjectNode datum(GeodeticDatum d) {
    ObjectNode o = JSON.objectNode();
    o.put("type", "GeodeticReferenceFrame");
    o.put("name", name(d));
    ellipsoid(o, d.getEllipsoid());
    id(o, d);
    return o;
  }

  private static void ellipsoid(ObjectNode o, Ellipsoid e) {
    ObjectNode ellipsoid = o.putObject("ellipsoid");
    ellipsoid.put("name", name(e));
    ellipsoid.put("semi_major_axis", e.getSemiMajorAxis());
    if (e.isSphere()) {
      ellipsoid.remove("semi_major_axis");
      ellipsoid.put("radius", e.getSemiMajorAxis());
    } else {
      ellipsoid.put("inverse_flattening", e.getInverseFlattening());
    }
    id(ellipsoid, e);
  }

  private static ObjectNode conversion(Conversion c) {
    ObjectNode o = JSON.objectNode();
    o.put("name", name(c));
    ObjectNode method = o.putObject("method");
    method.put("name", name(c.getMethod()));
    id(method, c.getMethod());
    ArrayNode parameters = o.putArray("parameters");
    for (GeneralParameterValue v : c.getParameterValues().values()) {
      if (v instanceof ParameterValue<?> pv && pv.getValue() instanceof Number n) {
        ObjectNode p = parameters.addObject();
        p.put("name", name(pv.getDescriptor()));
        p.put("value", n.doubleValue());
        if (pv.getUnit() != null) {
          p.set("unit", unit(pv.getUnit()));
        }
        id(p, pv.getDescriptor());
      }
    }
    return o;
  }

  private static ObjectNode cs(CoordinateSystem cs, String subtype) {
    ObjectNode o = JSON.objectNode();
    o.put("subtype", subtype);
    ArrayNode axes = o.putArray("axis");
    for (int i = 0; i < cs.getDimension(); i++) {
      CoordinateSystemAxis a = cs.getAxis(i);
      ObjectNode axis = axes.addObject();
      axis.put("name", name(a));
      axis.put("abbreviation", a.getAbbreviation());
      axis.put("direction", a.getDirection().identifier());
      axis.set("unit", unit(a.getUnit()));
    }
    return o;
  }

  /** A unit: PROJJSON's names for the common ones, else its name and factor to the SI unit. */
  private static com.fasterxml.jackson.databind.JsonNode unit(Unit<?> u) {
    if (Units.DEGREE.equals(u)) {
      return JSON.textNode("degree");
    }
    if (Units.METRE.equals(u)) {
      return JSON.textNode("metre");
    }
    if (Units.UNITY.equals(u)) {
      return JSON.textNode("unity");
    }
    ObjectNode o = JSON.objectNode();
    boolean angular = Units.isAngular(u);
    o.put("type", angular ? "AngularUnit" : Units.isLinear(u) ? "LinearUnit" : "ScaleUnit");
    o.put("name", String.valueOf(u));
    Unit<?> si = u.getSystemUnit();
    try {
      o.put("conversion_factor", u.getConverterToAny(si).convert(1.0));
    } catch (javax.measure.IncommensurableException e) {
      o.put("conversion_factor", 1.0);
    }
    return o;
  }

  private static String name(IdentifiedObject o) {
    return o.getName().getCode();
  }

  /** The object's EPSG code as {@code id}, when it has one. */
  private static void id(ObjectNode out, IdentifiedObject o) {
    Identifier id = IdentifiedObjects.getIdentifier(o, Citations.EPSG);
    if (id != null) {
      ObjectNode i = out.putObject("id");
      i.put("authority", "EPSG");
      try {
        i.put("code", Integer.parseInt(id.getCode()));
      } catch (NumberFormatException e) {
        i.put("code", id.getCode());
      }
    }
  }
}
