package io.tilebeam.transforms.feature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKTReader;

class AntimeridianTest {

  private static Geometry split(String wkt) throws Exception {
    return Antimeridian.split(new WKTReader().read(wkt));
  }

  @Test
  void aGeometryThatDoesNotCrossIsLeftAsItIs() throws Exception {
    Geometry g = new WKTReader().read("POLYGON((170 10, 179 10, 179 20, 170 20, 170 10))");
    assertSame(g, Antimeridian.split(g));
  }

  @Test
  void longitudesBeyond180AreCutAndBroughtBack() throws Exception {
    Geometry g = split("POLYGON((170 10, 190 10, 190 20, 170 20, 170 10))");
    assertEquals("MultiPolygon", g.getGeometryType());
    assertEquals(200.0, g.getArea(), 1e-9);
    assertEquals(new Envelope(-180, 180, 10, 20), g.getEnvelopeInternal());
    assertTrue(g.getGeometryN(0).getEnvelopeInternal().getMinX() >= -180);
  }

  @Test
  void aRingThatJumpsAcrossGoesTheShortWay() throws Exception {
    // 179 -> -179 is two degrees across the antimeridian, not 358 degrees around the world.
    Geometry g = split("POLYGON((179 10, -179 10, -179 20, 179 20, 179 10))");
    assertEquals(20.0, g.getArea(), 1e-9);
    assertEquals(2, g.getNumGeometries());
    Geometry east = split("POLYGON((179 10, 181 10, 181 20, 179 20, 179 10))");
    assertTrue(g.equalsTopo(east), g + " vs " + east);
  }

  @Test
  void linesAndPointsCrossToo() throws Exception {
    Geometry line = split("LINESTRING(175 0, -175 5)");
    assertEquals("MultiLineString", line.getGeometryType());
    assertEquals(Math.hypot(10, 5), line.getLength(), 1e-9);
    assertEquals(
        new org.locationtech.jts.geom.Coordinate(-170, 3), split("POINT(190 3)").getCoordinate());
  }

  @Test
  void holesStayInTheirShell() throws Exception {
    Geometry g =
        split(
            "POLYGON((170 0, -170 0, -170 20, 170 20, 170 0),"
                + " (175 5, -175 5, -175 15, 175 15, 175 5))");
    assertEquals(20 * 20 - 10 * 10, g.getArea(), 1e-9);
  }

  @Test
  void aRingAroundAPoleIsRefusedWithAReason() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> split("POLYGON((-170 80, -50 80, 70 80, -170 80.5, -170 80))"));
    assertTrue(e.getMessage().contains("pole") || e.getMessage().contains("ring"), e.getMessage());
  }

  @Test
  void onlyGeographicCrssInDegreesAreWrapped() {
    assertTrue(Antimeridian.appliesTo(CrsRef.of("EPSG:4326")));
    assertTrue(Antimeridian.appliesTo(CrsRef.of("OGC:CRS84")));
    assertEquals(false, Antimeridian.appliesTo(CrsRef.of("EPSG:3857")));
  }
}
