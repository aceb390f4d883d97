package io.tilebeam.transforms.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opengis.referencing.crs.CoordinateReferenceSystem;

/**
 * A mosaic of two overlapping GeoTIFFs cut from the test elevation grid, the second one's values
 * raised by 1000 so that its pixels can be told apart: where both have data the first listed wins,
 * elsewhere each one's own pixels fill the tile, and a tile neither reaches is all no data.
 */
class MosaicRenderingTest {

  @TempDir Path dir;

  @Test
  void theFirstListedWinsWhereTheyOverlap() throws Exception {
    Path dem = TestRasters.utmDem(dir);
    List<Path> halves =
        TestRasters.westAndEast(dem, dir, "-scale", "0", "1000", "1000", "2000", "-ot", "Int16");
    Path west = halves.get(0);
    Path east = halves.get(1);
    CoordinateReferenceSystem mercator = CrsResolver.resolve("EPSG:3857");
    TileSettings s =
        new TileSettings(
            256,
            new int[] {0},
            Resampling.NEAREST,
            (double) TestRasters.NODATA,
            SampleType.INT16,
            (double) TestRasters.NODATA);
    List<Bounds> tiles = new ArrayList<>();
    for (long x = 1066; x <= 1073; x++) {
      tiles.add(TestRasters.webMercator(11, x, 718));
    }
    tiles.add(TestRasters.webMercator(11, 1200, 718));
    try (TileResampler w = TileResampler.open(west);
        TileResampler e = TileResampler.open(east)) {
      List<RasterTile> mosaic = MosaicRendering.render(List.of(w, e), tiles, mercator, s);
      List<RasterTile> fromWest = w.render(tiles, mercator, s);
      List<RasterTile> fromEast = e.render(tiles, mercator, s);
      long first = 0, second = 0, both = 0;
      for (int t = 0; t < tiles.size(); t++) {
        double[] m = mosaic.get(t).samples();
        double[] a = fromWest.get(t).samples();
        double[] b = fromEast.get(t).samples();
        for (int i = 0; i < m.length; i++) {
          boolean inA = a[i] != TestRasters.NODATA;
          boolean inB = b[i] != TestRasters.NODATA;
          assertEquals(inA ? a[i] : b[i], m[i], "tile " + t + ", sample " + i);
          first += inA ? 1 : 0;
          second += !inA && inB ? 1 : 0;
          both += inA && inB ? 1 : 0;
        }
      }
      assertTrue(
          first > 100_000 && second > 100_000 && both > 30_000, first + " " + second + " " + both);
      assertTrue(mosaic.get(tiles.size() - 1).empty(), "a tile far east of both");
    }
  }
}
