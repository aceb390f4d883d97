package io.tilebeam.transforms.reproject;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

/** Rounding one coordinate at a time, and the count of what it leaves, made without it. */
class GeometryRounderTest {

  private final GeometryFactory factory = new GeometryFactory();
  private final GeometryRounder onGrid = new GeometryRounder(0);

  /**
   * The count agrees with the rounded geometry on polygons made at random at the scale of the grid
   * (points a fraction of a unit apart, which rounding merges; rings it flattens onto a line or a
   * point; holes that collapse while their shell stays and shells that take their holes along).
   */
  @Test
  void countsThePointsRoundingLeaves() {
    Random random = new Random(11);
    int collapsed = 0;
    for (int round = 0; round < 2000; round++) {
      int polygons = 1 + random.nextInt(3);
      List<Polygon> parts = new ArrayList<>();
      for (int p = 0; p < polygons; p++) {
        double scale = random.nextInt(4) == 0 ? 0.6 : 1 + random.nextInt(40);
        LinearRing shell = ring(random, scale, random.nextBoolean() ? 0 : 0.45);
        LinearRing[] holes = new LinearRing[random.nextInt(3)];
        for (int h = 0; h < holes.length; h++) {
          holes[h] = ring(random, scale / 3, 0);
        }
        parts.add(factory.createPolygon(shell, holes));
      }
      Geometry g =
          parts.size() == 1
              ? parts.get(0)
              : factory.createMultiPolygon(parts.toArray(Polygon[]::new));
      Geometry rounded = onGrid.round(g);
      collapsed += rounded.getNumPoints() < g.getNumPoints() ? 1 : 0;
      assertEquals(rounded.getNumPoints(), onGrid.roundedPoints(g), g.toText());
    }
    // The cases that matter occurred: rounding dropped points or rings in many of them.
    assertEquals(true, collapsed > 500, "collapsed in " + collapsed);
  }

  @Test
  void countsRingsFlattenedOntoALineAsNothing() throws ParseException {
    WKTReader wkt = new WKTReader(factory);
    // A shell whose points round onto one line: the polygon goes, its hole with it.
    assertEquals(
        0,
        onGrid.roundedPoints(
            wkt.read("POLYGON ((0 0, 5 0.2, 10 -0.2, 5 0.1, 0 0), (1 1, 2 1, 2 2, 1 1))")));
    // A hole that does: the shell stays.
    Geometry g = wkt.read("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2.3, 6 1.8, 2 2))");
    assertEquals(5, onGrid.roundedPoints(g));
    assertEquals(onGrid.round(g).getNumPoints(), onGrid.roundedPoints(g));
    assertEquals(-1, onGrid.roundedPoints(wkt.read("LINESTRING (0 0, 5 5)")));
    assertEquals(0, onGrid.roundedPoints(wkt.read("POLYGON EMPTY")));
  }

  /** A closed ring of 3-12 points around the origin, each moved by up to {@code jitter} in y. */
  private LinearRing ring(Random random, double scale, double jitter) {
    int n = 3 + random.nextInt(10);
    double cx = random.nextInt(100);
    double cy = random.nextInt(100);
    Coordinate[] c = new Coordinate[n + 1];
    for (int i = 0; i < n; i++) {
      double angle = 2 * Math.PI * i / n;
      double flat = jitter > 0 ? 0 : Math.sin(angle);
      c[i] =
          new Coordinate(
              cx + scale * Math.cos(angle),
              cy + scale * flat + jitter * (random.nextDouble() - 0.5));
    }
    c[n] = c[0].copy();
    return factory.createLinearRing(c);
  }
}
