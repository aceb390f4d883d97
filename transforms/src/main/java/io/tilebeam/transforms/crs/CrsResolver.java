package io.tilebeam.transforms.crs;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.sis.referencing.CRS;
import org.apache.sis.referencing.crs.AbstractCRS;
import org.apache.sis.referencing.cs.AxesConvention;
import org.opengis.referencing.crs.CoordinateReferenceSystem;
import org.opengis.util.FactoryException;

/**
 * Reads CRS spellings with Apache SIS and gives each CRS one identity.
 *
 * <p>Every CRS returned here has <b>east/north axis order</b> ({@link
 * AxesConvention#RIGHT_HANDED}): SIS follows the EPSG database, where EPSG:4326 and EPSG:3035 are
 * northing-first, but tilebeam's coordinates are always x = east, y = north.
 */
public final class CrsResolver {

  /** The identity of WGS 84 longitude/latitude (RFC 7946's CRS). */
  public static final String CRS84 = "OGC:CRS84";

  private static final Map<String, CoordinateReferenceSystem> RESOLVED = new ConcurrentHashMap<>();

  static {
    DerbyLog.install();
  }

  private CrsResolver() {}

  /**
   * Starts SIS's EPSG database (seconds, the longest part of a command's start-up) on a daemon
   * thread, so that it overlaps work that does not need it, such as starting a runner. Failures are
   * left for the first real {@link #resolve} to report.
   */
  public static void warmUpInBackground() {
    Thread t =
        new Thread(
            () -> {
              try {
                resolve("EPSG:3857");
              } catch (RuntimeException e) {
                // resolve() reports it where it matters.
              }
            },
            "tilebeam-crs-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Resolves a code ({@code EPSG:3857}), URN, OGC URI, {@code CRS:84} or WKT (1 or 2) to a CRS in
   * east/north axis order. Results are cached per spelling.
   *
   * @throws UnknownCrsException when SIS cannot read it
   */
  public static CoordinateReferenceSystem resolve(String spelling) {
    if (spelling == null || spelling.isBlank()) {
      throw new UnknownCrsException(
          String.valueOf(spelling), new IllegalArgumentException("empty"));
    }
    String key = spelling.trim();
    CoordinateReferenceSystem crs = RESOLVED.get(key);
    if (crs == null) {
      crs = rightHanded(parse(key));
      RESOLVED.put(key, crs);
    }
    return crs;
  }

  /**
   * The CRS that {@code spelling} names with the axis order its definition gives (EPSG:4326 is
   * latitude first). Only for reading coordinates written in that order; compute in {@link
   * #resolve}'s east/north CRS.
   *
   * @throws UnknownCrsException when SIS cannot read it
   */
  public static CoordinateReferenceSystem parseAsDefined(String spelling) {
    return parse(spelling.trim());
  }

  private static CoordinateReferenceSystem parse(String spelling) {
    try {
      if (CrsIdentities.isWkt(spelling)) {
        return CRS.fromWKT(spelling);
      }
      return CRS.forCode(normaliseCode(spelling));
    } catch (FactoryException | RuntimeException e) {
      throw new UnknownCrsException(spelling, e);
    }
  }

  /** SIS reads {@code CRS:84} but not the {@code OGC:CRS84} spelling OGC API uses. */
  private static String normaliseCode(String spelling) {
    String upper = spelling.toUpperCase(Locale.ROOT);
    return upper.equals("OGC:CRS84") ? "CRS:84" : spelling;
  }

  static CoordinateReferenceSystem rightHanded(CoordinateReferenceSystem crs) {
    return AbstractCRS.castOrCopy(crs).forConvention(AxesConvention.RIGHT_HANDED);
  }
}
