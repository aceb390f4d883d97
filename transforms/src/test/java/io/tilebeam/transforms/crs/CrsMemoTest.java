package io.tilebeam.transforms.crs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.nio.file.attribute.FileTime;
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
  void anotherBuildStartsEmptyAndKeepsOnlyTheNewestOtherMemos() throws Exception {
    // Builds a to e, each a second older than the next, each with its own fact.
    for (int i = 0; i < 5; i++) {
      String build = "build-" + (char) ('a' + i);
      CrsMemo.reset();
      CrsMemo.persistIn(dir, build);
      CrsMemo.get("k", () -> build);
      Files.setLastModifiedTime(memo(build), FileTime.fromMillis(1_000_000_000_000L + i * 1000L));
    }
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-f");
    assertEquals("new", CrsMemo.get("k", () -> "new"));
    // The three newest others stay, the older two go.
    for (String gone : List.of("build-a", "build-b")) {
      assertFalse(Files.exists(memo(gone)), gone);
    }
    for (String kept : List.of("build-c", "build-d", "build-e")) {
      assertTrue(Files.exists(memo(kept)), kept);
    }
    // Going back to an older build that is kept: its facts are read, not computed again.
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-d");
    assertEquals("build-d", CrsMemo.get("k", CrsMemoTest::never));
    assertTrue(Files.exists(memo("build-f")));
  }

  private Path memo(String build) {
    return dir.resolve("tilebeam-crs-memo-" + build + ".properties");
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

  /**
   * A memo damaged or edited by hand (a fact in an older form, a flag that is not one, a domain cut
   * short, an extent with a box missing) is not trusted and does not fail the run: each such fact
   * is computed again, equal to what a clean memo gives, and the file holds it afterwards.
   */
  @Test
  void aRememberedFactThatDoesNotReadIsComputedAgain() throws Exception {
    TileMatrixSet tms = TileMatrixSet.webMercatorQuad();
    Extent extent = new Extent(170.25, -89, -170.125, 12.5, CrsRef.of("OGC:CRS84"));
    CrsRef utm = CrsRef.of("EPSG:32632");
    CrsMemo.reset();
    List<Bounds> boxes = ExtentNormalizer.normalize(extent, tms);
    double[] domain = CrsFacts.domainOfValidity(utm);
    CrsRef ref = CrsRef.of("urn:ogc:def:crs:EPSG::3857");

    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    ExtentNormalizer.normalize(extent, tms);
    CrsFacts.domainOfValidity(utm);
    CrsFacts.angular(CrsRef.of("EPSG:4326"));
    CrsRef.of("urn:ogc:def:crs:EPSG::3857");
    Path file = dir.resolve("tilebeam-crs-memo-build-a.properties");
    Properties damaged = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      damaged.load(in);
    }
    for (String key : damaged.stringPropertyNames()) {
      String v = damaged.getProperty(key);
      if (key.startsWith("extent:")) {
        damaged.setProperty(key, v.substring(0, v.lastIndexOf(',')));
      } else if (key.startsWith("domain:")) {
        damaged.setProperty(key, "5.0 0.0 12.0 84.0"); // the older, decimal form
      } else if (key.startsWith("angular:")) {
        damaged.setProperty(key, "yes");
      } else if (key.startsWith("reference:")) {
        damaged.setProperty(key, "EPSG:3857");
      }
    }
    try (var out = Files.newOutputStream(file)) {
      damaged.store(out, null);
    }

    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    assertEquals(boxes, ExtentNormalizer.normalize(extent, tms));
    assertArrayEquals(domain, CrsFacts.domainOfValidity(utm));
    assertTrue(CrsFacts.angular(CrsRef.of("EPSG:4326")));
    assertEquals(ref, CrsRef.of("urn:ogc:def:crs:EPSG::3857"));
    // Replaced in the file: a new process reads them without computing.
    CrsMemo.reset();
    CrsMemo.persistIn(dir, "build-a");
    Properties mended = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      mended.load(in);
    }
    for (String key : mended.stringPropertyNames()) {
      String v = mended.getProperty(key);
      assertEquals(v, CrsMemo.known(key));
      assertFalse(v.equals("yes") || v.equals("EPSG:3857") || v.contains(" "), key + "=" + v);
    }
    assertThrows(IllegalArgumentException.class, () -> CrsMemo.flag("TRUE"));
  }
}
