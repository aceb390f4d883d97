package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CoordinateTransformer;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.sis.referencing.CRS;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.opengis.referencing.cs.AxisDirection;

/**
 * tilebeam's transforms (SIS, through {@link CoordinateTransformer}) against PROJ's {@code cs2cs}
 * on the same points: at most 1 mm apart. {@code scripts/setup.sh} installs {@code proj-bin}.
 *
 * <p>Points are drawn (seeded, so every run checks the same ones) from a box inside the area of use
 * of the operation PROJ picks, so that both sides use the same EPSG operation. Each side is fed in
 * its own axis order: PROJ in the authority's (EPSG:4326 and EPSG:3035 are northing first),
 * tilebeam east/north.
 */
class ProjAccuracyTest {

  private static final int POINTS = 2000;
  private static final double MAX_ERROR_METRES = 0.001;

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    // source, target, box in the source CRS: west, south, east, north (east/north order)
    "EPSG:4326, EPSG:3857, -179.9, -85.0, 179.9, 85.0",
    "EPSG:4326, EPSG:32633, 9.5, 0.5, 20.5, 83.5",
    "EPSG:4326, EPSG:3035, -10, 36, 30, 70",
    "EPSG:4326, EPSG:2154, -4.5, 42.5, 7.5, 51",
    // England and Wales onshore: PROJ's default operation there is OSGB36 to WGS 84 (6).
    "EPSG:4326, EPSG:27700, -3.5, 50.8, 0.3, 53.8",
    // Projected to projected: ETRS89 / LAEA Europe to WGS 84 / UTM 33N over central Europe.
    "EPSG:3035, EPSG:32633, 4300000, 2200000, 5000000, 3400000",
    "EPSG:27700, EPSG:3857, 300000, 100000, 600000, 400000",
  })
  void matchesCs2csToTheMillimetre(
      String source, String target, double west, double south, double east, double north)
      throws Exception {
    // scripts/setup.sh installs PROJ; outside CI a machine without it skips this comparison.
    Assumptions.assumeTrue(System.getenv("CI") != null || cs2csInstalled(), "cs2cs is installed");
    SplittableRandom random = new SplittableRandom(source.hashCode() * 31L + target.hashCode());
    Coordinate[] points = new Coordinate[POINTS];
    for (int i = 0; i < POINTS; i++) {
      points[i] =
          new Coordinate(
              west + random.nextDouble() * (east - west),
              south + random.nextDouble() * (north - south));
    }
    Geometry ours =
        new CoordinateTransformer(
                CrsTransforms.operation(CrsRef.of(source), CrsRef.of(target)).getMathTransform())
            .apply(new GeometryFactory().createMultiPointFromCoords(points));
    List<double[]> theirs = cs2cs(source, target, points);

    double worst = 0;
    int worstAt = -1;
    for (int i = 0; i < POINTS; i++) {
      Coordinate c = ours.getGeometryN(i).getCoordinate();
      double error = Math.hypot(c.x - theirs.get(i)[0], c.y - theirs.get(i)[1]);
      if (error > worst) {
        worst = error;
        worstAt = i;
      }
    }
    assertTrue(
        worst <= MAX_ERROR_METRES,
        String.format(
            Locale.ROOT,
            "%s -> %s: worst difference %.6f m at %s (cs2cs %s, tilebeam %s)",
            source,
            target,
            worst,
            points[worstAt],
            java.util.Arrays.toString(theirs.get(worstAt)),
            ours.getGeometryN(worstAt).getCoordinate()));
  }

  /** The points through cs2cs, in and out in each CRS's authority axis order; east/north back. */
  private static List<double[]> cs2cs(String source, String target, Coordinate[] points)
      throws Exception {
    boolean swapIn = northingFirst(source);
    boolean swapOut = northingFirst(target);
    Process p;
    try {
      p =
          new ProcessBuilder("cs2cs", "-f", "%.6f", source, target)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
    } catch (IOException e) {
      throw new AssertionError("cs2cs not found: install proj-bin (scripts/setup.sh)", e);
    }
    StringBuilder input = new StringBuilder();
    for (Coordinate c : points) {
      double a = swapIn ? c.y : c.x;
      double b = swapIn ? c.x : c.y;
      input.append(String.format(Locale.ROOT, "%.12f %.12f%n", a, b));
    }
    p.getOutputStream().write(input.toString().getBytes(StandardCharsets.US_ASCII));
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "cs2cs did not finish");
    assertEquals(0, p.exitValue(), "cs2cs failed");
    List<double[]> out = new ArrayList<>();
    for (String line : output.split("\n")) {
      String[] f = line.trim().split("\\s+");
      double a = Double.parseDouble(f[0]);
      double b = Double.parseDouble(f[1]);
      out.add(swapOut ? new double[] {b, a} : new double[] {a, b});
    }
    assertEquals(points.length, out.size(), "cs2cs answered " + out.size() + " points");
    return out;
  }

  private static boolean cs2csInstalled() {
    try {
      Process p = new ProcessBuilder("cs2cs").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      p.waitFor();
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether the authority's first axis points north or south (PROJ follows the authority). */
  private static boolean northingFirst(String code) throws Exception {
    AxisDirection first = CRS.forCode(code).getCoordinateSystem().getAxis(0).getDirection();
    return first == AxisDirection.NORTH || first == AxisDirection.SOUTH;
  }
}
