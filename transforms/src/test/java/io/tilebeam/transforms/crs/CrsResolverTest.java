package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrsResolverTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "EPSG:3857|EPSG:3857",
        "epsg:3857|EPSG:3857",
        "urn:ogc:def:crs:EPSG::3857|EPSG:3857",
        "http://www.opengis.net/def/crs/EPSG/0/3857|EPSG:3857",
        "EPSG:4326|EPSG:4326",
        "CRS:84|OGC:CRS84",
        "OGC:CRS84|OGC:CRS84",
        "EPSG:32633|EPSG:32633",
      })
  void oneIdentityPerCrs(String spelling, String identity) {
    assertEquals(identity, CrsRef.of(spelling).identity());
  }

  @ParameterizedTest
  @CsvSource({"EPSG:999999", "nonsense", "''"})
  void unknownCrsIsRefusedWithItsSpelling(String spelling) {
    UnknownCrsException e = assertThrows(UnknownCrsException.class, () -> CrsRef.of(spelling));
    assertEquals(true, e.getMessage().contains("'" + spelling + "'"), e.getMessage());
  }

  @org.junit.jupiter.api.Test
  void geographicAxesAreEastNorth() throws Exception {
    // EPSG:4326 is latitude-first in the EPSG database; tilebeam always hands SIS east/north.
    Bounds b =
        CrsTransforms.transform(
                new Bounds(10, 50, 10, 50), CrsRef.of("EPSG:4326"), CrsRef.of("EPSG:3857"))
            .get(0);
    assertEquals(1113194.9079327357, b.minX(), 1e-6);
    assertEquals(6446275.841017158, b.minY(), 1e-6);
  }
}
