package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;

/**
 * Cuts a geometry, already in the matrix set's CRS (east/north), into its pieces for every tile of
 * one zoom, in one pass per zoom: each component is sliced into columns, each column into rows
 * ({@link StripeCutter}), and each tile's slices are made into valid rings ({@link TileAssembler}).
 * The work grows with the vertices plus the pieces made, never with vertices × tiles; a tile wholly
 * inside a polygon gets its square from the slices' edges without any of the polygon's vertices.
 *
 * <pre>{@code
 * TileCutter cutter = new TileCutter(tms, bufferPixels);
 * cutter.cut(geometryInTmsCrs, z, simplifyPixels, claimed, gate, (tile, piece) -> emit(tile, piece));
 * }</pre>
 */
public final class TileCutter {

  private final TileMatrixSet tms;
  private final double bufferPixels;
  private final double minSizePixels;

  /** A cutter for tiles of {@code tms} grown by {@code bufferPixels} on every side. */
  public TileCutter(TileMatrixSet tms, double bufferPixels) {
    this(tms, bufferPixels, 0);
  }

  /**
   * A cutter that also drops the rings (after simplification) whose area is smaller than a square
   * {@code minSizePixels} on a side ({@link CutSpec#minSizePixels()}); 0 keeps every ring.
   */
  public TileCutter(TileMatrixSet tms, double bufferPixels, double minSizePixels) {
    this.tms = tms;
    this.bufferPixels = bufferPixels;
    this.minSizePixels = minSizePixels;
  }

  /**
   * The geometry's components in the order the gate numbers them: polygons, lines and points, with
   * multi-geometries and collections opened up.
   */
  public static List<Geometry> components(Geometry g) {
    List<Geometry> out = new ArrayList<>();
    collect(g, out);
    return out;
  }

  private static void collect(Geometry g, List<Geometry> out) {
    if (g instanceof GeometryCollection) {
      for (int i = 0; i < g.getNumGeometries(); i++) {
        collect(g.getGeometryN(i), out);
      }
    } else if (!g.isEmpty()) {
      out.add(g);
    }
  }

  /**
   * A geometry made ready to be cut for several zooms in turn ({@link #cut(Prepared, int, double,
   * TileFilter, ComponentGate, boolean, BiConsumer)}): its components, and each polygon ring's
   * points (in the cutter's orientation) with what simplification keeps of them at every tolerance
   * of those zooms ({@link Simplifier.Ladder}), found once rather than once a zoom.
   *
   * <p>A polygon's rings are taken out of it at once and the polygon is not kept: a country's
   * coastline is tens of megabytes as JTS objects, several times its points in arrays, and held
   * through every zoom's cut it was most of the live heap while the largest countries were cut.
   */
  public static final class Prepared {
    // The components in the gate's order; a polygon's entry is null, its rings being in `rings`.
    private final Geometry[] parts;
    private final double leastTolerance;
    private final Ring[][] rings;

    private Prepared(Geometry g, double leastTolerance) {
      List<Geometry> components = components(g);
      this.parts = new Geometry[components.size()];
      this.leastTolerance = leastTolerance;
      this.rings = new Ring[parts.length][];
      for (int c = 0; c < parts.length; c++) {
        Geometry part = components.get(c);
        if (part instanceof Polygon p) {
          rings[c] = ringsOf(p, leastTolerance);
        } else {
          parts[c] = part;
        }
      }
    }

    /** The rings of a polygon, shell first. */
    private static Ring[] ringsOf(Polygon p, double leastTolerance) {
      Ring[] out = new Ring[p.getNumInteriorRing() + 1];
      for (int r = 0; r < out.length; r++) {
        LineString ring = r == 0 ? p.getExteriorRing() : p.getInteriorRingN(r - 1);
        out[r] = new Ring(ringPoints(ring.getCoordinateSequence(), r == 0), leastTolerance);
      }
      return out;
    }
  }

  /** One ring's points, simplified on demand for any zoom's tolerance. */
  private static final class Ring {
    private final PointBuffer points;
    private final Simplifier.Ladder ladder;

    Ring(PointBuffer points, double leastTolerance) {
      this.points = points;
      this.ladder = leastTolerance > 0 ? new Simplifier.Ladder(points, leastTolerance) : null;
    }

    /** The points simplified at {@code tolerance} (0: as they are). */
    PointBuffer at(double tolerance) {
      return tolerance > 0 ? ladder.at(tolerance) : points;
    }
  }

  /**
   * {@code g} (in the matrix set's CRS) made ready to be cut for zooms down to {@code deepest} with
   * {@code simplifyPixels}, the tolerance in pixels of each zoom.
   */
  public Prepared prepare(Geometry g, int deepest, double simplifyPixels) {
    return new Prepared(g, tolerance(deepest, simplifyPixels));
  }

  /** The simplification tolerance of zoom {@code z} in the matrix set's CRS units. */
  private double tolerance(int z, double simplifyPixels) {
    TileMatrix m = tms.matrix(z);
    return simplifyPixels * m.tileSpanX() / m.tileWidthPixels();
  }

  /**
   * Cuts {@code g} for zoom {@code z} and hands each wanted tile's piece to {@code sink}, in tile
   * order.
   *
   * @param simplifyPixels the Douglas–Peucker tolerance in pixels of this zoom, 0 for none
   * @return the rings dropped as smaller than the minimum size that lay in a wanted tile
   */
  public long cut(
      Geometry g,
      int z,
      double simplifyPixels,
      TileFilter filter,
      ComponentGate gate,
      BiConsumer<TileId, TilePiece> sink) {
    return cut(prepare(g, z, simplifyPixels), z, simplifyPixels, filter, gate, false, sink);
  }

  /**
   * Cuts a prepared geometry for zoom {@code z}, no deeper than it was prepared for, as {@link
   * #cut(Geometry, int, double, TileFilter, ComponentGate, BiConsumer)} cuts the geometry; with
   * {@code wound}, polygons that need not be valid are cut as their rings wind: each tile's piece
   * holds the rings the tile received, clipped but not joined, to be read as the area where they
   * wind at least once ({@link CutSpec#woundPieces()}).
   */
  public long cut(
      Prepared g,
      int z,
      double simplifyPixels,
      TileFilter filter,
      ComponentGate gate,
      boolean wound,
      BiConsumer<TileId, TilePiece> sink) {
    TileMatrix m = tms.matrix(z);
    Zoom zoom =
        new Zoom(
            z,
            Stripes.columns(m, bufferPixels),
            Stripes.rows(m, bufferPixels),
            tolerance(z, simplifyPixels),
            minSizePixels * m.tileSpanX() / m.tileWidthPixels(),
            filter,
            wound);
    long[] dropped = {0};
    // Sorted by tile, so that what follows sees the same sequence on every run.
    Map<Long, TilePiece> pieces = new TreeMap<>();
    if (zoom.tolerance() > 0 && zoom.tolerance() < g.leastTolerance) {
      throw new IllegalArgumentException(
          "zoom " + z + " is deeper than the geometry was prepared for");
    }
    for (int c = 0; c < g.parts.length; c++) {
      Geometry part = g.parts[c];
      int component = c;
      BiConsumer<Long, Adder> add =
          (cell, adder) -> {
            TileId tile = TileId.of(z, cell >>> 32, cell & 0xffffffffL);
            if (gate.admits(component, tile)) {
              adder.addTo(pieces.computeIfAbsent(cell, k -> new TilePiece()));
            }
          };
      if (g.rings[c] != null) {
        dropped[0] += cutPolygon(g.rings[c], zoom, add);
      } else if (part instanceof LineString l) {
        cutLine(l, zoom, add);
      } else if (part instanceof Point p) {
        cutPoint(p, zoom, add);
      }
    }
    pieces.forEach(
        (cell, piece) -> {
          if (!piece.isEmpty()) {
            sink.accept(TileId.of(z, cell >>> 32, cell & 0xffffffffL), piece);
          }
        });
    return dropped[0];
  }

  /** What one component adds to one tile's piece. */
  private interface Adder {
    void addTo(TilePiece piece);
  }

  /** One zoom's stripes, tolerance and wanted tiles. */
  private record Zoom(
      int z,
      Stripes columns,
      Stripes rows,
      double tolerance,
      double minSize,
      TileFilter filter,
      boolean wound) {

    /** Whether the tile that holds the middle of {@code ring} is wanted. */
    boolean wantsMiddleOf(PointBuffer ring) {
      double[] b = bounds(ring);
      double x = (b[0] + b[2]) / 2;
      double y = (b[1] + b[3]) / 2;
      long c = columns.first(x, x);
      long r = rows.first(y, y);
      return c >= 0 && r >= 0 && filter.wants(z, c, r);
    }

    /** The wanted columns from {@code first} to {@code last}. */
    boolean[] wantedColumns(long first, long last) {
      boolean[] w = new boolean[(int) (last - first + 1)];
      for (int i = 0; i < w.length; i++) {
        w[i] = filter.wantsColumn(z, first + i);
      }
      return w;
    }

    /** The wanted rows from {@code first} to {@code last} of column {@code x}. */
    boolean[] wantedRows(long x, long first, long last) {
      boolean[] w = new boolean[(int) (last - first + 1)];
      for (int i = 0; i < w.length; i++) {
        w[i] = filter.wants(z, x, first + i);
      }
      return w;
    }
  }

  /**
   * Whether a ring, of twice the signed area {@code doubleArea}, covers less than a square {@code
   * size} on a side: the area it winds (its signed area's size, the measure Planetiler drops rings
   * by) is below {@code size}². A ring smaller than {@code size} both across and down always is; so
   * is a sliver longer than that but thinner.
   */
  private static boolean isSpeck(double doubleArea, double size) {
    // doubleArea is twice the area.
    return Math.abs(doubleArea) < 2 * size * size;
  }

  private static long cell(long x, long y) {
    return (x << 32) | y;
  }

  /** Cuts one polygon; returns how many of its rings in wanted tiles were dropped as specks. */
  private long cutPolygon(Ring[] rings, Zoom zoom, BiConsumer<Long, Adder> add) {
    Map<Long, List<PointBuffer>> slices = new HashMap<>();
    long dropped = 0;
    for (int r = 0; r < rings.length; r++) {
      PointBuffer points = rings[r].at(zoom.tolerance());
      // The minimum size and the winding both read the ring's area: computed once.
      boolean turnable = zoom.wound() && zoom.tolerance() > 0;
      double doubleArea = zoom.minSize() > 0 || turnable ? points.doubleArea() : 0;
      if (zoom.minSize() > 0 && points.size() > 0 && isSpeck(doubleArea, zoom.minSize())) {
        // Only a shell counts as a part of the feature lost; a speck of a hole loses nothing.
        dropped += r == 0 && zoom.wantsMiddleOf(points) ? 1 : 0;
        continue;
      }
      if (points.size() < 3) {
        continue;
      }
      if (turnable) {
        points = turnedAsBefore(points, r == 0, doubleArea);
      }
      sliceRing(points, zoom, slices);
    }
    if (zoom.wound()) {
      addWound(slices, zoom, add);
      return dropped;
    }
    for (Map.Entry<Long, List<PointBuffer>> e : slices.entrySet()) {
      long x = e.getKey() >>> 32;
      long y = e.getKey() & 0xffffffffL;
      TileAssembler assembler =
          new TileAssembler(
              zoom.columns().lo(x), zoom.rows().lo(y), zoom.columns().hi(x), zoom.rows().hi(y));
      List<TileAssembler.Polygon> polygons = assembler.assemble(e.getValue());
      if (!polygons.isEmpty()) {
        boolean snapped = assembler.snapped();
        add.accept(
            e.getKey(),
            piece -> {
              polygons.forEach(piece::addPolygon);
              if (snapped) {
                piece.markSnapped();
              }
            });
      }
    }
    return dropped;
  }

  /**
   * A simplified ring turned back the way its role wants (a shell anticlockwise, a hole clockwise)
   * when simplification reversed it: a thin island left as three of its points can turn the other
   * way, and as it winds it would then cut itself out of the feature. {@code doubleArea} is twice
   * the ring's signed area.
   */
  private static PointBuffer turnedAsBefore(PointBuffer ring, boolean shell, double doubleArea) {
    if (!turnsWrong(doubleArea, shell)) {
      return ring;
    }
    // The simplified ring may be shared with other zooms: turned as a copy.
    PointBuffer turned = PointBuffer.of(ring.toArray(), ring.size());
    turned.reverse();
    return turned;
  }

  /**
   * Whether a ring of twice the signed area {@code doubleArea} turns against its role: a shell
   * clockwise, a hole anticlockwise.
   */
  private static boolean turnsWrong(double doubleArea, boolean shell) {
    return shell ? doubleArea < 0 : doubleArea > 0;
  }

  /** Drops the points at the end that repeat the first: a closing point, and its repeats. */
  private static void dropClosing(PointBuffer b) {
    while (b.size() > 1 && b.x(0) == b.x(b.size() - 1) && b.y(0) == b.y(b.size() - 1)) {
      b.removeLast();
    }
  }

  /** Hands each tile its slices as they wind ({@link #woundPolygons}). */
  private void addWound(
      Map<Long, List<PointBuffer>> slices, Zoom zoom, BiConsumer<Long, Adder> add) {
    for (Map.Entry<Long, List<PointBuffer>> e : slices.entrySet()) {
      long x = e.getKey() >>> 32;
      long y = e.getKey() & 0xffffffffL;
      double[] square = {
        zoom.columns().lo(x), zoom.rows().lo(y),
        zoom.columns().hi(x), zoom.rows().lo(y),
        zoom.columns().hi(x), zoom.rows().hi(y),
        zoom.columns().lo(x), zoom.rows().hi(y)
      };
      List<TileAssembler.Polygon> polygons = woundPolygons(e.getValue(), square);
      if (!polygons.isEmpty()) {
        add.accept(
            e.getKey(),
            piece -> {
              polygons.forEach(piece::addPolygon);
              piece.markWound();
            });
      }
    }
  }

  /**
   * One polygon's slices in one tile, kept as they wind: each slice is the part of a ring inside
   * the tile, exactly, joined along the tile's edges where it left and came back (so it may touch
   * or run back over itself), anticlockwise for a shell and clockwise for a hole. A slice winding
   * anticlockwise becomes a shell of its own; the clockwise ones become holes of the largest shell.
   * Read by roles (a shell +1 inside, a hole −1) the rings then wind as they were walked, and the
   * piece is the area where they wind at least once, whatever polygon holds a hole. A slice lying
   * on one line (a bridge along an edge alone) winds nowhere and is left out. With clockwise slices
   * alone (a ring crossing itself may still wind +1 in a loop), the holes go into the tile's {@code
   * square} (anticlockwise, open) with the square itself as a hole too: the two wind nowhere.
   */
  static List<TileAssembler.Polygon> woundPolygons(List<PointBuffer> slices, double[] square) {
    List<TileAssembler.Polygon> shells = new ArrayList<>(slices.size());
    List<double[]> holes = new ArrayList<>();
    int largest = -1;
    double largestArea = -1;
    for (PointBuffer slice : slices) {
      PointBuffer ring = closedOpen(slice);
      if (ring.size() < 3 || onAxisLine(ring)) {
        continue;
      }
      double area = ring.doubleArea();
      if (area >= 0) {
        if (area > largestArea) {
          largest = shells.size();
          largestArea = area;
        }
        shells.add(new TileAssembler.Polygon(ring.toArray(), List.of()));
      } else {
        holes.add(ring.toArray());
      }
    }
    if (shells.isEmpty()) {
      if (holes.isEmpty()) {
        return List.of();
      }
      double[] reversed = new double[square.length];
      for (int i = 0; i < square.length; i += 2) {
        reversed[i] = square[square.length - 2 - i];
        reversed[i + 1] = square[square.length - 1 - i];
      }
      holes.add(0, reversed);
      return List.of(new TileAssembler.Polygon(square, holes));
    }
    if (!holes.isEmpty()) {
      shells.set(largest, new TileAssembler.Polygon(shells.get(largest).shell(), holes));
    }
    return shells;
  }

  /** A ring's points without repeats, nor a closing point. */
  private static PointBuffer closedOpen(PointBuffer p) {
    PointBuffer d = new PointBuffer(p.size());
    for (int i = 0; i < p.size(); i++) {
      d.addDistinct(p.x(i), p.y(i));
    }
    dropClosing(d);
    return d;
  }

  /** Whether all the points share one x or one y. */
  private static boolean onAxisLine(PointBuffer p) {
    boolean sameX = true;
    boolean sameY = true;
    for (int i = 1; i < p.size() && (sameX || sameY); i++) {
      sameX &= p.x(i) == p.x(0);
      sameY &= p.y(i) == p.y(0);
    }
    return sameX || sameY;
  }

  /** Slices a ring into columns, then each column's slice into rows, keyed by tile. */
  private static void sliceRing(
      PointBuffer ring, Zoom zoom, Map<Long, List<PointBuffer>> slicesByTile) {
    double[] box = bounds(ring);
    long c0 = zoom.columns().first(box[0], box[2]);
    long c1 = zoom.columns().last(box[0], box[2]);
    if (c0 < 0 || c1 < c0) {
      return;
    }
    PointBuffer[] columns = StripeCutter.ring(ring, zoom.columns(), c0, zoom.wantedColumns(c0, c1));
    for (int i = 0; i < columns.length; i++) {
      PointBuffer column = columns[i];
      if (column == null) {
        continue;
      }
      long x = c0 + i;
      double[] cb = bounds(column);
      long r0 = zoom.rows().first(cb[1], cb[3]);
      long r1 = zoom.rows().last(cb[1], cb[3]);
      if (r0 < 0 || r1 < r0) {
        continue;
      }
      PointBuffer[] cells = StripeCutter.ring(column, zoom.rows(), r0, zoom.wantedRows(x, r0, r1));
      for (int j = 0; j < cells.length; j++) {
        if (cells[j] != null) {
          slicesByTile.computeIfAbsent(cell(x, r0 + j), k -> new ArrayList<>(2)).add(cells[j]);
        }
      }
    }
  }

  private void cutLine(LineString l, Zoom zoom, BiConsumer<Long, Adder> add) {
    PointBuffer points = linePoints(l.getCoordinateSequence());
    if (zoom.tolerance() > 0) {
      points = Simplifier.line(points, zoom.tolerance());
    }
    if (points.size() < 2) {
      return;
    }
    double[] box = bounds(points);
    long c0 = zoom.columns().first(box[0], box[2]);
    long c1 = zoom.columns().last(box[0], box[2]);
    if (c0 < 0 || c1 < c0) {
      return;
    }
    StripeCutter.LineParts[] columns =
        StripeCutter.line(points, zoom.columns(), c0, zoom.wantedColumns(c0, c1));
    Map<Long, List<double[]>> byTile = new TreeMap<>();
    for (int i = 0; i < columns.length; i++) {
      if (columns[i] == null) {
        continue;
      }
      long x = c0 + i;
      for (PointBuffer part : columns[i].parts) {
        double[] pb = bounds(part);
        long r0 = zoom.rows().first(pb[1], pb[3]);
        long r1 = zoom.rows().last(pb[1], pb[3]);
        if (r0 < 0 || r1 < r0) {
          continue;
        }
        StripeCutter.LineParts[] cells =
            StripeCutter.line(part, zoom.rows(), r0, zoom.wantedRows(x, r0, r1));
        for (int j = 0; j < cells.length; j++) {
          if (cells[j] == null) {
            continue;
          }
          for (PointBuffer piece : cells[j].parts) {
            double[] xy = distinct(piece);
            if (xy.length >= 4) {
              byTile.computeIfAbsent(cell(x, r0 + j), k -> new ArrayList<>()).add(xy);
            }
          }
        }
      }
    }
    byTile.forEach((cell, lines) -> add.accept(cell, piece -> lines.forEach(piece::addLine)));
  }

  private static void cutPoint(Point p, Zoom zoom, BiConsumer<Long, Adder> add) {
    double x = p.getX();
    double y = p.getY();
    long c0 = zoom.columns().first(x, x);
    long c1 = zoom.columns().last(x, x);
    long r0 = zoom.rows().first(y, y);
    long r1 = zoom.rows().last(y, y);
    if (c0 < 0 || r0 < 0) {
      return;
    }
    for (long c = c0; c <= c1; c++) {
      for (long r = r0; r <= r1; r++) {
        if (zoom.filter().wants(zoom.z(), c, r)) {
          add.accept(cell(c, r), piece -> piece.addPoint(x, y));
        }
      }
    }
  }

  /** A ring's points without the closing one: shells anticlockwise, holes clockwise. */
  private static PointBuffer ringPoints(CoordinateSequence seq, boolean shell) {
    int n = seq.size();
    PointBuffer b = new PointBuffer(n);
    for (int i = 0; i < n; i++) {
      b.addDistinct(seq.getX(i), seq.getY(i));
    }
    dropClosing(b);
    if (turnsWrong(b.doubleArea(), shell)) {
      b.reverse();
    }
    return b;
  }

  private static PointBuffer linePoints(CoordinateSequence seq) {
    PointBuffer b = new PointBuffer(seq.size());
    for (int i = 0; i < seq.size(); i++) {
      b.addDistinct(seq.getX(i), seq.getY(i));
    }
    return b;
  }

  private static double[] distinct(PointBuffer p) {
    PointBuffer d = new PointBuffer(p.size());
    for (int i = 0; i < p.size(); i++) {
      d.addDistinct(p.x(i), p.y(i));
    }
    return d.toArray();
  }

  /** {@code [minX, minY, maxX, maxY]} of the points. */
  private static double[] bounds(PointBuffer p) {
    double minX = Double.POSITIVE_INFINITY;
    double minY = Double.POSITIVE_INFINITY;
    double maxX = Double.NEGATIVE_INFINITY;
    double maxY = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < p.size(); i++) {
      minX = Math.min(minX, p.x(i));
      maxX = Math.max(maxX, p.x(i));
      minY = Math.min(minY, p.y(i));
      maxY = Math.max(maxY, p.y(i));
    }
    return new double[] {minX, minY, maxX, maxY};
  }
}
