package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opengis.referencing.operation.MathTransform;

/**
 * Every spelling of a CRS that real tools write (GDAL and PROJ WKT 1 and 2, ESRI WKT, codes, URNs,
 * OGC URIs) gets the same identity, and transforms known points exactly as the EPSG code does.
 */
class CrsSpellingsTest {

  private static final int[] CODES = {4326, 3857, 32633, 3035, 2154, 27700};
  private static final String[] FILES = {
    "gdal-wkt1", "gdal-wkt2", "esri", "proj-wkt1", "proj-wkt2"
  };

  static Stream<Arguments> spellings() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (int code : CODES) {
      for (String file : FILES) {
        out.add(Arguments.of(code, file, resource(file + "-" + code + ".wkt")));
      }
      out.add(Arguments.of(code, "code", "EPSG:" + code));
      out.add(Arguments.of(code, "lower-case code", "epsg:" + code));
      out.add(Arguments.of(code, "URN", "urn:ogc:def:crs:EPSG::" + code));
      out.add(Arguments.of(code, "OGC URI", "http://www.opengis.net/def/crs/EPSG/0/" + code));
    }
    return out.stream();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CrsSpellingsTest.class.getResourceAsStream("/crs/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  @ParameterizedTest(name = "EPSG:{0} as {1}")
  @MethodSource("spellings")
  void identityIsTheEpsgCode(int code, String flavour, String spelling) {
    assertEquals("EPSG:" + code, CrsRef.of(spelling).identity());
  }

  /** Points inside each CRS's area, longitude/latitude. */
  private static final double[][] POINTS = {
    {2.35, 48.85}, {-3.19, 55.95}, {15.0, 60.0}, {13.4, 52.52}, {-1.0, 50.7}, {9.19, 45.46}
  };

  @ParameterizedTest(name = "EPSG:{0} as {1}")
  @MethodSource("spellings")
  void transformsKnownPointsAsTheCodeDoes(int code, String flavour, String spelling)
      throws Exception {
    CrsRef wgs84 = CrsRef.of("CRS:84");
    MathTransform byCode =
        CrsTransforms.operation(wgs84, CrsRef.of("EPSG:" + code)).getMathTransform();
    MathTransform bySpelling =
        CrsTransforms.operation(wgs84, CrsRef.of(spelling)).getMathTransform();
    double tolerance = code == 4326 ? 1e-9 : 0.001;
    for (double[] p : POINTS) {
      double[] a = new double[2];
      double[] b = new double[2];
      byCode.transform(p, 0, a, 0, 1);
      bySpelling.transform(p, 0, b, 0, 1);
      assertEquals(a[0], b[0], tolerance, flavour + " x of " + p[0] + "," + p[1]);
      assertEquals(a[1], b[1], tolerance, flavour + " y of " + p[0] + "," + p[1]);
    }
  }

  @ParameterizedTest
  @MethodSource("crs84")
  void crs84HasOneIdentity(String spelling) {
    assertEquals("OGC:CRS84", CrsRef.of(spelling).identity());
  }

  static Stream<String> crs84() {
    return Stream.of(
        "CRS:84",
        "OGC:CRS84",
        "urn:ogc:def:crs:OGC:1.3:CRS84",
        "http://www.opengis.net/def/crs/OGC/1.3/CRS84");
  }

  private static final String CUSTOM_WKT1 =
      "PROJCS[\"Custom TM\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\","
          + "SPHEROID[\"WGS 84\",6378137,298.257223563]],PRIMEM[\"Greenwich\",0],"
          + "UNIT[\"degree\",0.0174532925199433]],PROJECTION[\"Transverse_Mercator\"],"
          + "PARAMETER[\"latitude_of_origin\",0],PARAMETER[\"central_meridian\",17.25],"
          + "PARAMETER[\"scale_factor\",0.9999],PARAMETER[\"false_easting\",123456],"
          + "PARAMETER[\"false_northing\",0],UNIT[\"metre\",1]]";

  @org.junit.jupiter.api.Test
  void aCrsWithoutAuthorityCodeIsIdentifiedByADigestOfItsWkt2() {
    CrsRef ref = CrsRef.of(CUSTOM_WKT1);
    assertEquals(true, ref.identity().matches("WKT2:[0-9a-f]{64}"), ref.identity());
    // The same CRS spelled as the WKT 2 that SIS writes for it has the same identity.
    String wkt2 =
        new org.apache.sis.io.wkt.WKTFormat(java.util.Locale.ROOT, java.time.ZoneOffset.UTC)
            .format(CrsResolver.parseAsDefined(CUSTOM_WKT1));
    assertEquals(ref.identity(), CrsRef.of(wkt2).identity());
    // And a different false easting is a different CRS.
    org.junit.jupiter.api.Assertions.assertNotEquals(
        ref.identity(), CrsRef.of(CUSTOM_WKT1.replace("123456", "123457")).identity());
  }

  @org.junit.jupiter.api.Test
  void aWktThatContradictsItsOwnCodeIsRefused() throws IOException {
    String edited =
        resource("gdal-wkt1-32633.wkt")
            .replace("\"central_meridian\",15", "\"central_meridian\",16");
    org.junit.jupiter.api.Assertions.assertNotEquals(resource("gdal-wkt1-32633.wkt"), edited);
    UnknownCrsException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            UnknownCrsException.class, () -> CrsRef.of(edited));
    assertEquals(true, e.getMessage().contains("declares EPSG:32633"), e.getMessage());
  }

  @org.junit.jupiter.api.Test
  void boundsFromAnyCrsReachTheSamePlace() throws Exception {
    Bounds viaWkt =
        CrsTransforms.transform(
                new Bounds(2.35, 48.85, 2.35, 48.85),
                CrsRef.of("EPSG:4326"),
                CrsRef.of(resource("esri-3035.wkt")))
            .get(0);
    // GDAL: echo "2.35 48.85" | gdaltransform -s_srs EPSG:4326 -t_srs EPSG:3035
    assertEquals(3760536.82290232, viaWkt.minX(), 0.001);
    assertEquals(2888771.02095019, viaWkt.minY(), 0.001);
  }
}
