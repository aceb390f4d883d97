package io.tilebeam.transforms.raster;

import io.tilebeam.codec.pixels.RasterTile;
import io.tilebeam.codec.pixels.SampleType;
import io.tilebeam.transforms.crs.Bounds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.sis.referencing.operation.transform.MathTransforms;
import org.opengis.referencing.operation.MathTransform;
import org.opengis.referencing.operation.TransformException;

/**
 * Where a tile's pixels fall in the source: the level it is read from and the centre of each of its
 * pixels in that level's pixel coordinates ({@link PixelCentres}), with the scale of the tile
 * against the level on each axis. Everything here depends on the tile alone, never on the tiles it
 * is rendered with, so its pixels are the same in every run.
 */
final class TilePlacement {

  private final int size;
  private final SourceLevel level;
  private final double[] centres;
  private final double scaleX;
  private final double scaleY;

  private TilePlacement(
      int size, SourceLevel level, double[] centres, double scaleX, double scaleY) {
    this.size = size;
    this.level = level;
    this.centres = centres;
    this.scaleX = scaleX;
    this.scaleY = scaleY;
  }

  /**
   * Places a tile of {@code size × size} pixels over {@code bounds}; {@code toSource} goes from the
   * tile's CRS to the source's.
   */
  static TilePlacement of(Bounds bounds, int size, List<SourceLevel> levels, MathTransform toSource)
      throws TransformException {
    if (levels.isEmpty()) {
      return new TilePlacement(size, null, null, 1, 1);
    }
    SourceLevel level = level(levels, ratio(bounds, size, levels.get(0), toSource));
    double[] centres =
        PixelCentres.of(bounds, size, MathTransforms.concatenate(toSource, level.crsToGrid()));
    int mid = (size / 2) * size + size / 2;
    double sx = 1, sy = 1;
    if (size > 1) {
      double dxi = centres[2 * (mid + 1)] - centres[2 * mid];
      double dxj = centres[2 * (mid + size)] - centres[2 * mid];
      double dyi = centres[2 * (mid + 1) + 1] - centres[2 * mid + 1];
      double dyj = centres[2 * (mid + size) + 1] - centres[2 * mid + 1];
      // GDAL's scale at a point: the inverse of the larger step the source takes for one step of
      // the tile along either axis.
      double stepX = Math.max(Math.abs(dxi), Math.abs(dxj));
      double stepY = Math.max(Math.abs(dyi), Math.abs(dyj));
      sx = stepX > 0 && Double.isFinite(stepX) ? 1 / stepX : 1;
      sy = stepY > 0 && Double.isFinite(stepY) ? 1 / stepY : 1;
    }
    return new TilePlacement(size, level, centres, sx, sy);
  }

  /**
   * How many level-0 pixels one tile pixel spans: the tile's diagonals in level-0 pixels over its
   * diagonal in its own (what GDAL calls the target ratio, from the same diagonals).
   */
  private static double ratio(Bounds b, int size, SourceLevel full, MathTransform toSource)
      throws TransformException {
    double half = b.width() / size / 2;
    double halfY = b.height() / size / 2;
    double[] corners = {
      b.minX() + half,
      b.maxY() - halfY,
      b.maxX() - half,
      b.minY() + halfY,
      b.maxX() - half,
      b.maxY() - halfY,
      b.minX() + half,
      b.minY() + halfY
    };
    PixelCentres.transform(MathTransforms.concatenate(toSource, full.crsToGrid()), corners);
    double d1 = Math.hypot(corners[2] - corners[0], corners[3] - corners[1]);
    double d2 = Math.hypot(corners[6] - corners[4], corners[7] - corners[5]);
    double d = Double.isFinite(d1) ? (Double.isFinite(d2) ? (d1 + d2) / 2 : d1) : d2;
    return Double.isFinite(d) && size > 1 ? d / ((size - 1) * Math.sqrt(2)) : 1;
  }

  /**
   * The level GDAL's warper picks for a target ratio ({@code gdalwarp -ovr AUTO}): full resolution
   * when the tile is not coarser than the source; else the overview before the first one coarser
   * than the tile, or one within 0.1 of the ratio; else the coarsest.
   */
  static SourceLevel level(List<SourceLevel> levels, double ratio) {
    if (ratio <= 1 || levels.size() == 1) {
      return levels.get(0);
    }
    int i = 0;
    for (; i < levels.size() - 1; i++) {
      double here = levels.get(i).ratio();
      double next = levels.get(i + 1).ratio();
      if ((here < ratio && next > ratio) || Math.abs(here - ratio) < 0.1) {
        break;
      }
    }
    return levels.get(i);
  }

  /** The tile with every pixel no data. */
  RasterTile blank(TileSettings s) {
    int bands = s.bands().length;
    double[] samples = new double[size * size * bands];
    if (s.nodataOut() != null) {
      Arrays.fill(samples, s.nodataOut());
    }
    return new RasterTile(
        size, size, bands, s.type(), s.nodataOut(), samples, new BitSet(size * size));
  }

  SourceLevel level() {
    return level;
  }

  /**
   * The rows [{@code tileRow0}, {@code tileRow1}) of a tile with the level's pixels they need:
   * columns [{@code column0}, {@code column1}) and rows [{@code sourceRow0}, {@code sourceRow1}).
   */
  record Part(
      TilePlacement tile,
      int tileRow0,
      int tileRow1,
      long column0,
      long sourceRow0,
      long column1,
      long sourceRow1) {

    SourceLevel level() {
      return tile.level;
    }

    long samples(int bands) {
      return (column1 - column0) * (sourceRow1 - sourceRow0) * bands;
    }

    /** Computes the part's pixels from {@code window} into {@code out}. */
    void render(RasterWindow window, TileSettings s, RasterTile out) {
      tile.render(this, window, s, out.samples(), out.covered());
    }
  }

  /** How far beyond a point's pixel its kernel reaches, in the level's pixels. */
  private int reach(Resampling r) {
    double radius = r.radius();
    double scale = Math.min(Math.min(scaleX, scaleY), 1);
    return (int) Math.ceil(radius / scale) + 2;
  }

  /** Rows [row0, row1) and the level's pixels they need; null when they need none. */
  private Part part(int row0, int row1, Resampling r) {
    double minX = Double.POSITIVE_INFINITY, minY = Double.POSITIVE_INFINITY;
    double maxX = Double.NEGATIVE_INFINITY, maxY = Double.NEGATIVE_INFINITY;
    for (int at = 2 * row0 * size; at < 2 * row1 * size; at += 2) {
      double x = centres[at];
      double y = centres[at + 1];
      if (Double.isFinite(x) && Double.isFinite(y)) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
    if (minX > maxX) {
      return null;
    }
    int m = reach(r);
    long c0 = (long) Math.max(0, Math.floor(minX) - m);
    long c1 = (long) Math.min(level.width(), Math.floor(maxX) + m + 1);
    long r0 = (long) Math.max(0, Math.floor(minY) - m);
    long r1 = (long) Math.min(level.height(), Math.floor(maxY) + m + 1);
    return c1 > c0 && r1 > r0 ? new Part(this, row0, row1, c0, r0, c1, r1) : null;
  }

  /**
   * The windows to read for these tiles: the parts of one level together where they fit in {@code
   * budget} samples, else a tile at a time, and a tile that does not fit alone in strips of rows
   * that do (down to one row).
   */
  static List<List<Part>> windows(List<TilePlacement> tiles, TileSettings s, long budget) {
    int bands = s.bands().length;
    Map<Integer, List<Part>> byLevel = new LinkedHashMap<>();
    for (TilePlacement t : tiles) {
      if (t.level == null) {
        continue;
      }
      Part whole = t.part(0, t.size, s.resampling());
      if (whole != null) {
        byLevel.computeIfAbsent(t.level.index(), k -> new ArrayList<>()).add(whole);
      }
    }
    List<List<Part>> out = new ArrayList<>();
    for (List<Part> parts : byLevel.values()) {
      if (Area.of(parts).pixels() * bands <= budget) {
        out.add(parts);
        continue;
      }
      for (Part p : parts) {
        split(p, s.resampling(), bands, budget, out);
      }
    }
    return out;
  }

  /**
   * A rectangle of a level's pixels: columns [{@code column0}, {@code column1}), rows [{@code
   * row0}, {@code row1}).
   */
  record Area(long column0, long row0, long column1, long row1) {

    /** The smallest area holding every part's pixels. */
    static Area of(List<Part> parts) {
      long c0 = Long.MAX_VALUE, r0 = Long.MAX_VALUE, c1 = Long.MIN_VALUE, r1 = Long.MIN_VALUE;
      for (Part p : parts) {
        c0 = Math.min(c0, p.column0);
        r0 = Math.min(r0, p.sourceRow0);
        c1 = Math.max(c1, p.column1);
        r1 = Math.max(r1, p.sourceRow1);
      }
      return new Area(c0, r0, c1, r1);
    }

    /** How many pixels it holds. */
    long pixels() {
      return (column1 - column0) * (row1 - row0);
    }
  }

  private static void split(Part p, Resampling r, int bands, long budget, List<List<Part>> out) {
    if (p.samples(bands) <= budget || p.tileRow1 - p.tileRow0 == 1) {
      out.add(List.of(p));
      return;
    }
    int mid = (p.tileRow0 + p.tileRow1) / 2;
    for (Part half :
        new Part[] {p.tile.part(p.tileRow0, mid, r), p.tile.part(mid, p.tileRow1, r)}) {
      if (half != null) {
        split(half, r, bands, budget, out);
      }
    }
  }

  /** Computes a part's pixels from {@code window} into {@code samples}. */
  private void render(
      Part part, RasterWindow window, TileSettings s, double[] samples, BitSet covered) {
    Kernels k = new Kernels(window, level.width(), level.height());
    int bands = s.bands().length;
    SampleType type = s.type();
    boolean avoid = s.nodataOut() != null;
    double nodata = avoid ? s.nodataOut() : 0;
    boolean fourSamples = scaleX >= 0.95 && scaleY >= 0.95;
    Resampling r = s.resampling();
    for (int j = part.tileRow0; j < part.tileRow1; j++) {
      for (int i = 0; i < size; i++) {
        int pixel = j * size + i;
        double x = centres[2 * pixel];
        double y = centres[2 * pixel + 1];
        if (!(x >= 0 && y >= 0 && x < level.width() && y < level.height())) {
          // Outside the source (or not transformable): no data, as GDAL leaves pixels whose
          // centre falls off the image, whatever their kernel would reach.
          continue;
        }
        for (int b = 0; b < bands; b++) {
          double v =
              switch (r) {
                case NEAREST -> k.nearest(b, x, y);
                case BILINEAR ->
                    fourSamples ? k.bilinear(b, x, y) : k.widened(b, x, y, r, scaleX, scaleY);
                case CUBIC ->
                    fourSamples ? k.cubic(b, x, y) : k.widened(b, x, y, r, scaleX, scaleY);
              };
          if (!Double.isNaN(v)) {
            // Without a no-data value the coverage marks the pixel: its samples are kept as they
            // are, never moved off a value.
            samples[pixel * bands + b] = avoid ? type.storeAvoiding(v, nodata) : type.store(v);
            covered.set(pixel);
          }
        }
      }
    }
  }
}
