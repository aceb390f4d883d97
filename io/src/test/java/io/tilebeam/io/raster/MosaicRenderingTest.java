package io.tilebeam.io.raster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.source.Gdal;
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

  private static final double WORLD = 20037508.342789244;

  @Test
  void theFirstListedWinsWhereTheyOverlap() throws Exception {
    Path dem = TestRasters.utmDem(dir);
    Path west = dir.resolve("west.tif");
    Path east = dir.resolve("east.tif");
    Gdal.run(
        "gdal_translate", "-q", "-srcwin", "0", "0", "350", "400", dem.toString(), west.toString());
    Gdal.run(
        "gdal_translate",
        "-q",
        "-srcwin",
        "250",
        "0",
        "350",
        "400",
        "-scale",
        "0",
        "1000",
        "1000",
        "2000",
        "-ot",
        "Int16",
        dem.toString(),
        east.toString());
    CoordinateReferenceSystem mercator = CrsResolver.resolve("EPSG:3857");
    TileSettings s =
        new TileSettings(
            256,
            new int[] {0},
            Resampling.NEAREST,
            (double) TestRasters.NODATA,
            SampleType.INT16,
            TestRasters.NODATA);
    List<Bounds> tiles = new ArrayList<>();
    for (long x = 1066; x <= 1073; x++) {
      tiles.add(bounds(11, x, 718));
    }
    tiles.add(bounds(11, 1200, 718));
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

  private static Bounds bounds(int z, long x, long y) {
    double size = 2 * WORLD / (1L << z);
    double minX = -WORLD + x * size;
    double maxY = WORLD - y * size;
    return new Bounds(minX, maxY - size, minX + size, maxY);
  }
}
