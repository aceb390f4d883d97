package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.tiling.Extent;
import io.tilebeam.transforms.tiling.ExtentNormalizer;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrsMemoTest {

  @TempDir Path dir;

  @AfterEach
  void forget() {
    CrsMemo.reset();
  }

  private static String never() {
    throw new AssertionError("the fact should have been remembered");
  }

  @Test
  void aFactIsComputedOnceAndReadBackByTheNextProcess() throws Exception {
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    AtomicInteger computed = new AtomicInteger();
    assertEquals("v", CrsMemo.get("k", () -> "v" + "".repeat(computed.incrementAndGet())));
    assertEquals("v", CrsMemo.get("k", CrsMemoTest::never));
    assertEquals(1, computed.get());
    assertTrue(Files.isRegularFile(dir.resolve("tilebeam-crs-memo-build-a.properties")));

    // A new process (memory forgotten) reads the file instead of computing.
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    assertEquals("v", CrsMemo.get("k", CrsMemoTest::never));
  }

  @Test
  void anotherBuildStartsEmptyAndRemovesTheOldMemo() throws Exception {
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    CrsMemo.get("k", () -> "old");
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-b");
    assertEquals("new", CrsMemo.get("k", () -> "new"));
    assertFalse(Files.exists(dir.resolve("tilebeam-crs-memo-build-a.properties")));
  }

  @Test
  void aFailedComputationIsNotRemembered() {
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    assertThrows(
        IllegalStateException.class,
        () ->
            CrsMemo.get(
                "k",
                () -> {
                  throw new IllegalStateException("no");
                }));
    assertEquals("later", CrsMemo.get("k", () -> "later"));
  }

  @Test
  void anUnreadableMemoIsIgnored() throws Exception {
    Files.write(
        dir.resolve("tilebeam-crs-memo-build-a.properties"),
        "k=\\uZZZZ broken escape".getBytes(StandardCharsets.ISO_8859_1));
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    assertEquals("computed", CrsMemo.get("k", () -> "computed"));
  }

  @Test
  void rememberedPlanningFactsEqualComputedOnes() throws Exception {
    TileMatrixSet tms = TileMatrixSet.webMercatorQuad();
    // Crosses the antimeridian and reaches past the set's latitude band.
    Extent extent = new Extent(170.25, -89, -170.125, 12.5, CrsRef.of("OGC:CRS84"));
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    List<Bounds> computed = ExtentNormalizer.normalize(extent, tms);
    CrsRef ref = CrsRef.of("urn:ogc:def:crs:EPSG::3857");
    boolean angular = CrsFacts.angular(CrsRef.of("EPSG:4326"));

    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    Properties file = new Properties();
    try (InputStream in =
        Files.newInputStream(dir.resolve("tilebeam-crs-memo-build-a.properties"))) {
      file.load(in);
    }
    for (String kind : List.of("extent:", "reference:urn:ogc:def:crs:EPSG::3857", "angular:")) {
      assertTrue(
          file.stringPropertyNames().stream().anyMatch(k -> k.startsWith(kind)),
          kind + " is in " + file.stringPropertyNames());
    }
    assertEquals(computed, ExtentNormalizer.normalize(extent, tms));
    assertEquals(2, computed.size());
    assertEquals(ref, CrsRef.of("urn:ogc:def:crs:EPSG::3857"));
    assertEquals(new CrsRef("EPSG:3857", "EPSG:3857"), ref);
    assertTrue(angular);
    assertEquals(angular, CrsFacts.angular(CrsRef.of("EPSG:4326")));
    assertFalse(CrsFacts.angular(ref));
    assertTrue(CrsFacts.northFirstAsDefined(CrsRef.of("EPSG:4326")));
  }
}
