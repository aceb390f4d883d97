package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.sis.geometry.Envelopes;
import org.apache.sis.geometry.GeneralEnvelope;
import org.apache.sis.referencing.CRS;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.opengis.geometry.Envelope;
import org.opengis.referencing.operation.CoordinateOperation;

/**
 * The CRSs built without the EPSG database compute what the database's do, bit for bit: the check
 * that lets a run use them ({@link BuiltinCrs#sameAs}) holds for every built-in pair, and points
 * and boxes come out the same either way. If a new SIS or EPSG version changed that, these fail
 * (and runs would quietly open the database again).
 */
class BuiltinCrsTest {

  @AfterEach
  void forget() {
    CrsMemo.reset();
  }

  private static CoordinateOperation database(String source, String target) throws Exception {
    return CRS.findOperation(CrsResolver.resolve(source), CrsResolver.resolve(target), null);
  }

  private static CoordinateOperation builtin(String source, String target) throws Exception {
    return BuiltinCrs.operation(BuiltinCrs.of(source), BuiltinCrs.of(target));
  }

  @ParameterizedTest
  @CsvSource({
    "CRS:84, EPSG:3857",
    "EPSG:3857, CRS:84",
    "EPSG:4326, EPSG:3857",
    "EPSG:3857, EPSG:4326",
    "EPSG:3857, EPSG:3857",
    "CRS:84, CRS:84",
    "EPSG:32632, EPSG:3857",
    "EPSG:3857, EPSG:32632",
    "EPSG:32733, EPSG:3857",
    "CRS:84, EPSG:32601",
    "EPSG:32760, CRS:84"
  })
  void builtInOperationsComputeAsTheDatabasesDo(String source, String target) throws Exception {
    CoordinateOperation db = database(source, target);
    CoordinateOperation built = builtin(source, target);
    assertTrue(BuiltinCrs.sameAs(db, built), source + " -> " + target);

    boolean geographic = source.equals("CRS:84") || source.equals("EPSG:4326");
    Random random = new Random(source.hashCode() * 31L + target.hashCode());
    int n = 100_000;
    double[] points = new double[2 * n];
    for (int i = 0; i < n; i++) {
      points[2 * i] = geographic ? random.nextDouble() * 360 - 180 : random.nextGaussian() * 1e7;
      points[2 * i + 1] = geographic ? random.nextDouble() * 170 - 85 : random.nextGaussian() * 1e7;
    }
    double[] viaDatabase = new double[2 * n];
    double[] viaBuiltin = new double[2 * n];
    db.getMathTransform().transform(points, 0, viaDatabase, 0, n);
    built.getMathTransform().transform(points, 0, viaBuiltin, 0, n);
    assertArrayEquals(viaDatabase, viaBuiltin, 0.0);

    for (int i = 0; i < 500; i++) {
      double x = geographic ? random.nextDouble() * 400 - 200 : random.nextGaussian() * 1.5e7;
      double y = geographic ? random.nextDouble() * 200 - 100 : random.nextGaussian() * 1.5e7;
      double w = geographic ? random.nextDouble() * 60 : random.nextDouble() * 5e6;
      double h = geographic ? random.nextDouble() * 40 : random.nextDouble() * 5e6;
      assertEquals(box(db, x, y, w, h), box(built, x, y, w, h), x + " " + y + " " + w + " " + h);
    }
  }

  /** The envelope transform of a box, as text with every coordinate, or the failure's class. */
  private static String box(CoordinateOperation op, double x, double y, double w, double h) {
    GeneralEnvelope in = new GeneralEnvelope(op.getSourceCRS());
    in.setRange(0, x, x + w);
    in.setRange(1, y, y + h);
    try {
      Envelope out = Envelopes.transform(op, in);
      return List.of(out.getMinimum(0), out.getMinimum(1), out.getMaximum(0), out.getMaximum(1))
          .toString();
    } catch (Exception e) {
      return e.getClass().getName();
    }
  }

  @Test
  void theCheckRefusesAnotherOperation() throws Exception {
    // World Mercator (EPSG:3395) is ellipsoidal where Web Mercator is spherical: other numbers.
    assertFalse(BuiltinCrs.sameAs(database("CRS:84", "EPSG:3395"), builtin("CRS:84", "EPSG:3857")));
    assertFalse(BuiltinCrs.sameAs(database("EPSG:3857", "CRS:84"), builtin("CRS:84", "EPSG:3857")));
  }

  @Test
  void onlyTheCommonCrssAreBuiltIn() {
    assertNotNull(BuiltinCrs.of("CRS:84"));
    assertSame(BuiltinCrs.of("CRS:84"), BuiltinCrs.of("EPSG:4326"));
    assertNotNull(BuiltinCrs.of("EPSG:3857"));
    assertNotNull(BuiltinCrs.of("EPSG:32632"));
    assertNull(BuiltinCrs.of("EPSG:3395"));
    assertNull(BuiltinCrs.of("EPSG:2154"));
    assertNull(BuiltinCrs.of("EPSG:32661"), "UPS north is not UTM");
  }

  /**
   * Every UTM zone on WGS 84 checks out against the database to Web Mercator but zone 29N, whose
   * domain EPSG draws wider than its six degrees (to 12.01°W and 84.01°N): the check compares
   * domains too, and that zone keeps the database's.
   */
  @Test
  void everyUtmZoneButOneChecksOut() throws Exception {
    for (int code :
        java.util.stream.IntStream.rangeClosed(1, 60)
            .flatMap(z -> java.util.stream.IntStream.of(32600 + z, 32700 + z))
            .toArray()) {
      String utm = "EPSG:" + code;
      boolean same = BuiltinCrs.sameAs(database(utm, "EPSG:3857"), builtin(utm, "EPSG:3857"));
      assertEquals(code != 32629, same, utm);
    }
  }

  @Test
  void anOperationIsBuiltInOnceCheckedAgainstTheDatabase() {
    CrsRef lonLat = new CrsRef(CrsResolver.CRS84, "CRS:84");
    CrsRef webMercator = new CrsRef("EPSG:3857", "EPSG:3857");
    CrsRef lambert = new CrsRef("EPSG:2154", "EPSG:2154");
    assertFalse(CrsTransforms.builtIn(lonLat, webMercator), "not checked yet");
    CrsTransforms.operation(lonLat, webMercator);
    assertTrue(CrsTransforms.builtIn(lonLat, webMercator));
    CrsTransforms.operation(lambert, webMercator);
    assertFalse(CrsTransforms.builtIn(lambert, webMercator), "no built-in definition");
  }

  @Test
  void factsTheCutterNeedsAreTheDatabases() {
    // Each is read back from the memo's text: the same doubles.
    for (String code : List.of("CRS:84", "EPSG:3857", "EPSG:32632", "EPSG:2154")) {
      CrsRef ref = new CrsRef(code, code);
      Envelope domain = CRS.getDomainOfValidity(CrsResolver.resolve(code));
      double[] box = CrsFacts.domainOfValidity(ref);
      assertArrayEquals(
          new double[] {
            domain.getMinimum(0), domain.getMinimum(1), domain.getMaximum(0), domain.getMaximum(1)
          },
          box,
          0.0,
          code);
    }
    assertTrue(CrsFacts.geographicInDegrees(new CrsRef(CrsResolver.CRS84, "CRS:84")));
    assertFalse(CrsFacts.geographicInDegrees(new CrsRef("EPSG:3857", "EPSG:3857")));
  }
}
