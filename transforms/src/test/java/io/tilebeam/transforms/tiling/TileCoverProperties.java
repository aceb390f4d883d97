package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties of the tile cover, checked on random boxes. Coordinates within twice the edge snap of
 * a tile edge are skipped: there the cover deliberately treats them as on the edge.
 */
class TileCoverProperties {

  private static final TileMatrixSet WM = TileMatrixSet.webMercatorQuad();
  private static final double H = TileMatrixSet.WEB_MERCATOR_HALF_WORLD;
  private static final CrsRef WGS84 = CrsRef.of("EPSG:4326");

  @Provide
  Arbitrary<Bounds> boxes() {
    Arbitrary<Double> c = Arbitraries.doubles().between(-H, H).ofScale(7);
    Arbitrary<Double> size =
        Arbitraries.oneOf(
            Arbitraries.just(0.0),
            Arbitraries.doubles().between(0, H / 4).ofScale(7),
            Arbitraries.doubles().between(0, 2 * H).ofScale(7));
    return Combinators.combine(c, c, size, size)
        .as((x, y, w, h) -> new Bounds(x, y, Math.min(H, x + w), Math.min(H, y + h)));
  }

  private static Set<TileId> tiles(List<Bounds> boxes, int z) {
    List<TileRange> ranges = new ArrayList<>();
    for (Bounds b : boxes) {
      TileCover.cover(b, WM.matrix(z)).ifPresent(ranges::add);
    }
    Set<TileId> out = new HashSet<>();
    new LayerCover(ranges).forEachTile(out::add);
    return out;
  }

  private static boolean nearEdge(double v, double origin, double span) {
    double f = Math.abs(v - origin) / span;
    return Math.abs(f - Math.rint(f)) < 2 * TileCover.EDGE_SNAP;
  }

  private static void assumeAwayFromEdges(Bounds b, int z) {
    TileMatrix m = WM.matrix(z);
    for (double x : new double[] {b.minX(), b.maxX()}) {
      Assume.that(!nearEdge(x, m.originX(), m.tileSpanX()));
    }
    for (double y : new double[] {b.minY(), b.maxY()}) {
      Assume.that(!nearEdge(y, m.originY(), m.tileSpanY()));
    }
  }

  @Property
  void coverOfTwoBoxesIsTheUnionOfTheirCovers(
      @ForAll("boxes") Bounds a, @ForAll("boxes") Bounds b, @ForAll @IntRange(max = 8) int z) {
    Set<TileId> union = new HashSet<>(tiles(List.of(a), z));
    union.addAll(tiles(List.of(b), z));
    if (!union.equals(tiles(List.of(a, b), z))) {
      throw new AssertionError("cover(a, b) differs from cover(a) ∪ cover(b)");
    }
  }

  @Property
  void everyCoveredTileMeetsTheInteriorOrContainsTheDegenerateBox(
      @ForAll("boxes") Bounds a, @ForAll @IntRange(max = 8) int z) {
    assumeAwayFromEdges(a, z);
    TileMatrix m = WM.matrix(z);
    for (TileId t : tiles(List.of(a), z)) {
      Bounds tile = m.tileBounds(t.x(), t.y());
      Bounds meet = tile.intersection(a);
      if (meet == null) {
        throw new AssertionError("tile " + t + " does not meet " + a);
      }
      boolean okX = a.width() == 0 || meet.width() > 0;
      boolean okY = a.height() == 0 || meet.height() > 0;
      if (!okX || !okY) {
        throw new AssertionError("tile " + t + " only touches " + a);
      }
    }
  }

  @Property
  void everyPointOfTheBoxLiesInACoveredTile(
      @ForAll("boxes") Bounds a,
      @ForAll @IntRange(max = 8) int z,
      @ForAll("fractions") double fx,
      @ForAll("fractions") double fy) {
    assumeAwayFromEdges(a, z);
    double x = a.minX() + fx * a.width();
    double y = a.minY() + fy * a.height();
    Set<TileId> cover = tiles(List.of(a), z);
    TileMatrix m = WM.matrix(z);
    long col = Math.min(m.matrixWidth() - 1, (long) Math.floor((x - m.originX()) / m.tileSpanX()));
    long row = Math.min(m.matrixHeight() - 1, (long) Math.floor((m.originY() - y) / m.tileSpanY()));
    // A point on an edge lies in the tiles on both sides: one of them must be covered.
    boolean found = false;
    for (long dx = -1; dx <= 0 && !found; dx++) {
      for (long dy = -1; dy <= 0 && !found; dy++) {
        if (col + dx >= 0 && row + dy >= 0) {
          TileId t = new TileId(z, col + dx, row + dy);
          Bounds tb = m.tileBounds(t.x(), t.y());
          boolean contains = tb.minX() <= x && x <= tb.maxX() && tb.minY() <= y && y <= tb.maxY();
          found = contains && cover.contains(t);
        }
      }
    }
    if (!found && !cover.contains(new TileId(z, col, row))) {
      throw new AssertionError("point " + x + ", " + y + " of " + a + " is in no covered tile");
    }
  }

  @Provide
  Arbitrary<Double> fractions() {
    return Arbitraries.oneOf(
        Arbitraries.of(0.0, 0.5, 1.0), Arbitraries.doubles().between(0, 1).ofScale(9));
  }

  /** Longitude/latitude boxes, crossing the antimeridian whenever west > east. */
  @Property(tries = 1000)
  void geographicExtentsCoverEveryPointIncludingAcrossTheAntimeridian(
      @ForAll("longitudes") double west,
      @ForAll("longitudes") double east,
      @ForAll("latitudes") double south,
      @ForAll("latitudes") double north,
      @ForAll @IntRange(max = 6) int z,
      @ForAll("fractions") double fx,
      @ForAll("fractions") double fy)
      throws Exception {
    Assume.that(south < north && west != east);
    Extent e = new Extent(west, south, east, north, WGS84);
    Set<TileId> cover = new HashSet<>();
    new LayerTiling("p", WM, List.of(e), z, z).cover().forEachTile(cover::add);
    double width = west <= east ? east - west : 360 - (west - east);
    double lon = west + fx * width;
    lon = lon > 180 ? lon - 360 : lon;
    double lat = south + fy * (north - south);
    Assume.that(Math.abs(lat) < TileMatrixSet.WEB_MERCATOR_LATITUDE_LIMIT);
    Bounds p = CrsTransforms.transform(new Bounds(lon, lat, lon, lat), WGS84, WM.crs()).get(0);
    TileMatrix m = WM.matrix(z);
    Assume.that(!nearEdge(p.minX(), m.originX(), m.tileSpanX()));
    Assume.that(!nearEdge(p.minY(), m.originY(), m.tileSpanY()));
    long col = (long) Math.floor((p.minX() - m.originX()) / m.tileSpanX());
    long row = (long) Math.floor((m.originY() - p.minY()) / m.tileSpanY());
    if (!cover.contains(new TileId(z, Math.min(col, m.matrixWidth() - 1), row))) {
      throw new AssertionError(
          "lon " + lon + " lat " + lat + " of " + e + " is in no covered tile");
    }
  }

  @Provide
  Arbitrary<Double> longitudes() {
    return Arbitraries.oneOf(
        Arbitraries.of(-180.0, 180.0, 0.0, 179.999, -179.999),
        Arbitraries.doubles().between(-180, 180).ofScale(6));
  }

  @Provide
  Arbitrary<Double> latitudes() {
    return Arbitraries.oneOf(
        Arbitraries.of(-90.0, 90.0, 0.0, 85.0511287798066, -85.0511287798066),
        Arbitraries.doubles().between(-90, 90).ofScale(6));
  }
}
