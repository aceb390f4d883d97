package io.tilebeam.transforms.cut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.feature.FeaturePiece;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKBReader;

/**
 * Douglas–Peucker made ready once for every tolerance ({@link Simplifier.Ladder}) keeps exactly the
 * points that a run at each tolerance keeps ({@link Simplifier#ring}): on random rings (noisy
 * circles, long straight runs, repeated points, spikes) and on the real country outlines; and a
 * feature cut for many zooms from one preparation gives the same pieces, byte for byte, as cut zoom
 * by zoom.
 */
class SimplifierTest {

  private static final double[] TOLERANCES = {3, 1, 0.5, 0.1, 0.05, 0.01, 1e-3, 1e-4, 1e-6};

  @Test
  void aLadderKeepsWhatEachRunKeepsOnRandomRings() {
    Random random = new Random(35);
    for (int trial = 0; trial < 300; trial++) {
      PointBuffer ring = randomRing(random);
      double least = TOLERANCES[random.nextInt(TOLERANCES.length)];
      Simplifier.Ladder ladder = new Simplifier.Ladder(ring, least);
      for (double t : TOLERANCES) {
        if (t >= least) {
          assertEquals(
              points(Simplifier.ring(ring, t)),
              points(ladder.at(t)),
              "trial " + trial + ", tolerance " + t);
        }
      }
    }
  }

  @Test
  void aLadderKeepsWhatEachRunKeepsOnRealCoastlines() throws Exception {
    WKBReader reader = new WKBReader();
    int rings = 0;
    for (Feature f : CountryFixture.features()) {
      Geometry g = reader.read(f.wkb());
      for (int i = 0; i < g.getNumGeometries(); i++) {
        Polygon p = (Polygon) g.getGeometryN(i);
        for (int r = 0; r <= p.getNumInteriorRing(); r++) {
          LineString ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
          PointBuffer points = new PointBuffer(ring.getNumPoints());
          for (int k = 0; k < ring.getNumPoints() - 1; k++) {
            points.add(ring.getCoordinateN(k).x, ring.getCoordinateN(k).y);
          }
          Simplifier.Ladder ladder = new Simplifier.Ladder(points, 1e-5);
          for (double t : new double[] {1, 0.1, 0.01, 1e-3, 1e-4, 1e-5}) {
            assertEquals(points(Simplifier.ring(points, t)), points(ladder.at(t)), f.id());
          }
          rings++;
        }
      }
    }
    assertTrue(rings > 100, "rings: " + rings);
  }

  /** Every fixture country cut for zooms 0-8 in one go, and zoom by zoom: the same pieces. */
  @Test
  void aFeatureCutForManyZoomsGivesThePiecesOfEachZoomAlone() throws Exception {
    TileMatrixSet web = TileMatrixSet.webMercatorQuad();
    CrsRef wgs84 = CrsRef.of("EPSG:4326");
    List<Feature> countries = CountryFixture.features();
    TreeMap<String, String> together = new TreeMap<>();
    FeatureCutter all = new FeatureCutter(new CutSpec(wgs84, web, 0, 8, 8, 1));
    for (Feature f : countries) {
      all.cut(f, TileFilter.ALL, (t, p) -> together.merge(key(f, t), hex(p), String::concat));
    }
    TreeMap<String, String> alone = new TreeMap<>();
    for (int z = 0; z <= 8; z++) {
      FeatureCutter one = new FeatureCutter(new CutSpec(wgs84, web, z, z, 8, 1));
      for (Feature f : countries) {
        one.cut(f, TileFilter.ALL, (t, p) -> alone.merge(key(f, t), hex(p), String::concat));
      }
    }
    assertTrue(together.size() > 100, "pieces: " + together.size());
    assertEquals(alone, together);
  }

  private static String key(Feature f, TileId t) {
    return t.path() + " " + f.id();
  }

  private static String hex(FeaturePiece p) {
    return HexFormat.of().formatHex(p.wkb());
  }

  /** A closed ring's points without the closing one: a noisy circle, with runs and repeats. */
  private static PointBuffer randomRing(Random random) {
    int n = 4 + random.nextInt(400);
    double noise = random.nextDouble() * 0.3;
    PointBuffer ring = new PointBuffer(n);
    for (int i = 0; i < n; i++) {
      double a = 2 * Math.PI * i / n;
      double r = 10 * (1 + noise * random.nextGaussian());
      switch (random.nextInt(10)) {
        case 0 -> { // a long straight run
          for (int k = 0; k < 20; k++) {
            ring.add(k * 0.1, -20);
          }
        }
        case 1 -> { // a repeated point
          ring.add(r * Math.cos(a), r * Math.sin(a));
          ring.add(r * Math.cos(a), r * Math.sin(a));
        }
        case 2 -> ring.add(40 * Math.cos(a), 40 * Math.sin(a)); // a spike
        default -> ring.add(r * Math.cos(a), r * Math.sin(a));
      }
    }
    return ring;
  }

  private static List<String> points(PointBuffer p) {
    List<String> out = new ArrayList<>(p.size());
    for (int i = 0; i < p.size(); i++) {
      out.add(p.x(i) + " " + p.y(i));
    }
    return out;
  }
}
