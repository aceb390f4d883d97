package io.tilebeam.transforms.crs;

import io.tilebeam.transforms.digest.Sha256;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.sis.io.wkt.Convention;
import org.apache.sis.io.wkt.WKTFormat;
import org.apache.sis.referencing.CRS;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.referencing.factory.IdentifiedObjectFinder;
import org.opengis.metadata.extent.GeographicBoundingBox;
import org.opengis.referencing.IdentifiedObject;
import org.opengis.referencing.ReferenceIdentifier;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.referencing.crs.GeographicCRS;
import org.opengis.referencing.crs.ProjectedCRS;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.TransformException;
import org.opengis.util.FactoryException;

/**
 * One identity per CRS, however it is spelled.
 *
 * <ul>
 *   <li>{@code OGC:CRS84} for the CRS84 code in any of its spellings;
 *   <li>{@code EPSG:<code>} when the spelling is an EPSG code, when a WKT declares one (and means
 *       it), or when a WKT without one defines a CRS of the EPSG database;
 *   <li>{@code WKT2:<sha-256 of the WKT 2 SIS writes>} otherwise.
 * </ul>
 *
 * <p>"Defines the same CRS" is decided by behaviour, not by names: both CRSs must be of one kind
 * and transform a grid of points over the candidate's area of use identically (to a millimetre, or
 * 1e-9° for geographic CRSs). Names, datum ensembles and axis order do not matter; tilebeam always
 * computes east/north.
 *
 * <p>GDAL writes EPSG:3857 as WKT 1 with an ellipsoidal {@code Mercator_1SP} plus {@code
 * EXTENSION["PROJ4", "+proj=merc +a=6378137 +b=6378137 …"]}, which SIS does not read. As GDAL does,
 * a WKT with a PROJ4 extension and an EPSG code is taken to be that code.
 */
final class CrsIdentities {

  private static final Pattern WKT_START = Pattern.compile("^[A-Za-z_]+\\s*[\\[(]");
  private static final Pattern PROJ4_EXTENSION =
      Pattern.compile("EXTENSION\\s*\\[\\s*\"PROJ4\"", Pattern.CASE_INSENSITIVE);

  private CrsIdentities() {}

  static boolean isWkt(String spelling) {
    return WKT_START.matcher(spelling).find();
  }

  /**
   * The reference for a spelling: its identity, and the definition workers resolve (the EPSG or
   * CRS84 code when the identity is one, so every spelling computes with the authority's
   * definition; the WKT itself otherwise). Not cached here: {@link CrsRef#of}, its one caller,
   * remembers it in the {@link CrsMemo}.
   */
  static CrsRef reference(String spelling) {
    return compute(spelling.trim());
  }

  private static CrsRef compute(String s) {
    CoordinateReferenceSystem parsed = CrsResolver.parseAsDefined(s);
    if (isCrs84(parsed)) {
      return new CrsRef(CrsResolver.CRS84, "CRS:84");
    }
    Integer declared = declaredEpsg(parsed);
    if (declared != null) {
      if (!isWkt(s) || PROJ4_EXTENSION.matcher(s).find() || sameCrs(parsed, epsg(declared, s))) {
        return epsgRef(declared);
      }
      throw new UnknownCrsException(
          s,
          new IllegalArgumentException(
              "it declares EPSG:" + declared + " but its parameters define another CRS"));
    }
    Integer found = search(parsed, parsed);
    if (found == null && isWkt(s)) {
      // SIS matches only datums it can name; another tool's datum name is mapped to EPSG's.
      for (String renamed : DatumNames.rewrite(s)) {
        found = search(CrsResolver.parseAsDefined(renamed), parsed);
        if (found != null) {
          break;
        }
      }
    }
    if (found != null) {
      return epsgRef(found);
    }
    return new CrsRef("WKT2:" + Sha256.hex(wkt2(parsed)), s);
  }

  private static CrsRef epsgRef(int code) {
    return new CrsRef("EPSG:" + code, "EPSG:" + code);
  }

  private static boolean isCrs84(CoordinateReferenceSystem crs) {
    for (ReferenceIdentifier id : crs.getIdentifiers()) {
      String code = id.getCode();
      String space = id.getCodeSpace() == null ? "" : id.getCodeSpace();
      if (code.equalsIgnoreCase("CRS84") || (code.equals("84") && space.equalsIgnoreCase("CRS"))) {
        return true;
      }
    }
    return false;
  }

  private static Integer declaredEpsg(CoordinateReferenceSystem crs) {
    for (ReferenceIdentifier id : crs.getIdentifiers()) {
      if ("EPSG".equalsIgnoreCase(id.getCodeSpace())) {
        try {
          return Integer.valueOf(id.getCode().trim());
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static CoordinateReferenceSystem epsg(int code, String spelling) {
    try {
      return CRS.forCode("EPSG:" + code);
    } catch (FactoryException e) {
      throw new UnknownCrsException(spelling, e);
    }
  }

  /**
   * The first EPSG CRS, by code, that SIS finds for {@code query} and that behaves as {@code crs};
   * null when none does.
   */
  private static Integer search(CoordinateReferenceSystem query, CoordinateReferenceSystem crs) {
    try {
      IdentifiedObjectFinder finder = IdentifiedObjects.newFinder("EPSG");
      finder.setIgnoringAxes(true);
      finder.setSearchDomain(IdentifiedObjectFinder.Domain.EXHAUSTIVE_VALID_DATASET);
      List<Integer> codes = new ArrayList<>();
      for (IdentifiedObject candidate : finder.find(query)) {
        Integer code = declaredEpsg((CoordinateReferenceSystem) candidate);
        if (code != null && sameCrs(crs, (CoordinateReferenceSystem) candidate)) {
          codes.add(code);
        }
      }
      return codes.stream().min(Integer::compare).orElse(null);
    } catch (FactoryException | ClassCastException e) {
      // No EPSG search possible: the digest identity below is still exact.
      return null;
    }
  }

  /** Whether two CRSs are of one kind and transform a grid of points alike. */
  static boolean sameCrs(CoordinateReferenceSystem a, CoordinateReferenceSystem b) {
    boolean kinds =
        (a instanceof GeographicCRS && b instanceof GeographicCRS)
            || (a instanceof ProjectedCRS && b instanceof ProjectedCRS);
    if (!kinds
        || a.getCoordinateSystem().getDimension() != b.getCoordinateSystem().getDimension()) {
      return false;
    }
    CoordinateReferenceSystem ra = CrsResolver.rightHanded(a);
    CoordinateReferenceSystem rb = CrsResolver.rightHanded(b);
    CoordinateReferenceSystem lonLat = CrsResolver.resolve("CRS:84");
    double tolerance = a instanceof GeographicCRS ? 1e-9 : 1e-3;
    try {
      MathTransform ta = CRS.findOperation(lonLat, ra, null).getMathTransform();
      MathTransform tb = CRS.findOperation(lonLat, rb, null).getMathTransform();
      double[] grid = grid(CRS.getGeographicBoundingBox(b));
      double[] pa = new double[grid.length];
      double[] pb = new double[grid.length];
      ta.transform(grid, 0, pa, 0, grid.length / 2);
      tb.transform(grid, 0, pb, 0, grid.length / 2);
      for (int i = 0; i < grid.length; i++) {
        if (!(Math.abs(pa[i] - pb[i]) <= tolerance)) {
          return false;
        }
      }
      return true;
    } catch (FactoryException | TransformException e) {
      return false;
    }
  }

  /** 5 × 5 longitude/latitude points spread over the inner part of an area of use. */
  private static double[] grid(GeographicBoundingBox area) {
    double west = area == null ? -10 : area.getWestBoundLongitude();
    double east = area == null ? 10 : area.getEastBoundLongitude();
    double south = area == null ? -10 : Math.max(-80, area.getSouthBoundLatitude());
    double north = area == null ? 10 : Math.min(80, area.getNorthBoundLatitude());
    if (east < west) {
      east += 360;
    }
    double[] out = new double[50];
    int k = 0;
    for (int i = 1; i <= 5; i++) {
      for (int j = 1; j <= 5; j++) {
        double lon = west + (east - west) * i / 6;
        out[k++] = lon > 180 ? lon - 360 : lon;
        out[k++] = south + (north - south) * j / 6;
      }
    }
    return out;
  }

  private static String wkt2(CoordinateReferenceSystem crs) {
    WKTFormat format = new WKTFormat(Locale.ROOT, java.time.ZoneOffset.UTC);
    format.setConvention(Convention.WKT2);
    return format.format(crs);
  }
}
