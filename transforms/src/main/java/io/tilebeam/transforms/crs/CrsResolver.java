package io.tilebeam.transforms.crs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.sis.io.wkt.Convention;
import org.apache.sis.io.wkt.WKTFormat;
import org.apache.sis.referencing.CRS;
import org.apache.sis.referencing.CommonCRS;
import org.apache.sis.referencing.IdentifiedObjects;
import org.apache.sis.referencing.crs.AbstractCRS;
import org.apache.sis.referencing.cs.AxesConvention;
import org.apache.sis.util.ComparisonMode;
import org.apache.sis.util.Utilities;
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

  private static final Pattern WKT_START = Pattern.compile("^[A-Za-z_]+\\s*[\\[(]");
  private static final Map<String, CoordinateReferenceSystem> RESOLVED = new ConcurrentHashMap<>();
  private static final Map<String, String> IDENTITIES = new ConcurrentHashMap<>();

  static {
    DerbyLog.install();
  }

  private CrsResolver() {}

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

  /**
   * The identity of the CRS that {@code spelling} names; see {@link #identity}.
   *
   * @throws UnknownCrsException when SIS cannot read it
   */
  public static String identityOf(String spelling) {
    if (spelling == null || spelling.isBlank()) {
      throw new UnknownCrsException(
          String.valueOf(spelling), new IllegalArgumentException("empty"));
    }
    return identity(parse(spelling.trim()));
  }

  /**
   * The identity of a CRS as it was defined (before any axis swap), the same however it was
   * spelled: {@code OGC:CRS84} for WGS 84 longitude/latitude, {@code EPSG:<code>} when the EPSG
   * database holds an equal CRS, otherwise {@code WKT2:<sha-256 of its WKT 2 form>}.
   */
  public static String identity(CoordinateReferenceSystem crs) {
    String wkt = wkt2(crs);
    return IDENTITIES.computeIfAbsent(wkt, w -> computeIdentity(crs, w));
  }

  private static String computeIdentity(CoordinateReferenceSystem crs, String wkt) {
    if (Utilities.deepEquals(
        crs, CommonCRS.WGS84.normalizedGeographic(), ComparisonMode.IGNORE_METADATA)) {
      return CRS84;
    }
    try {
      Integer code = IdentifiedObjects.lookupEPSG(crs);
      if (code != null) {
        return "EPSG:" + code;
      }
    } catch (FactoryException e) {
      // No EPSG match could be searched for: fall through to the digest, which is still exact.
    }
    return "WKT2:" + sha256(wkt);
  }

  private static CoordinateReferenceSystem parse(String spelling) {
    try {
      if (WKT_START.matcher(spelling).find()) {
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

  private static CoordinateReferenceSystem rightHanded(CoordinateReferenceSystem crs) {
    return AbstractCRS.castOrCopy(crs).forConvention(AxesConvention.RIGHT_HANDED);
  }

  private static String wkt2(CoordinateReferenceSystem crs) {
    WKTFormat format = new WKTFormat(Locale.ROOT, java.time.ZoneOffset.UTC);
    format.setConvention(Convention.WKT2);
    return format.format(crs);
  }

  private static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
