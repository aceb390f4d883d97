package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.repair.RoundingCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * One feature's part in one tile, gathered over the feature's components: its polygons, lines and
 * points in the matrix set's CRS, clipped to the buffered tile.
 */
public final class TilePiece {

  private final List<TileAssembler.Polygon> polygons = new ArrayList<>();
  private final List<double[]> lines = new ArrayList<>();
  private final List<double[]> points = new ArrayList<>();
  private long vertices;
  private boolean snapped;
  private boolean wound;

  void addPolygon(TileAssembler.Polygon p) {
    polygons.add(p);
    vertices += p.shell().length / 2 + 1;
    for (double[] h : p.holes()) {
      vertices += h.length / 2 + 1;
    }
  }

  void addLine(double[] xy) {
    lines.add(xy);
    vertices += xy.length / 2;
  }

  void addPoint(double x, double y) {
    points.add(new double[] {x, y});
    vertices++;
  }

  /**
   * Notes that points of the piece were moved onto the tile's edge ({@link TileAssembler}): it is
   * then not known to be exactly the source's part in the tile.
   */
  void markSnapped() {
    snapped = true;
  }

  /**
   * Notes that the polygons are a tile's slices of rings kept as they wind, not joined into valid
   * rings ({@link TileCutter#woundPolygons}): the piece is the area where they wind at least once.
   */
  void markWound() {
    wound = true;
  }

  /** Whether nothing reached the tile. */
  public boolean isEmpty() {
    return polygons.isEmpty() && lines.isEmpty() && points.isEmpty();
  }

  /** The number of vertices, closing points of rings included. */
  public long vertices() {
    return vertices;
  }

  /**
   * The piece as WKB: a single polygon, line or point when it is one, a multi-geometry of one kind
   * when it is several, a geometry collection when kinds are mixed.
   */
  public byte[] wkb() {
    Wkb w = new Wkb((int) Math.min(Integer.MAX_VALUE - 64, 16 * vertices + 64));
    writeTo(w);
    return w.bytes();
  }

  /** Writes the piece in the structure {@link #wkb()} describes. */
  void writeTo(PieceWriter w) {
    int kinds =
        (polygons.isEmpty() ? 0 : 1) + (lines.isEmpty() ? 0 : 1) + (points.isEmpty() ? 0 : 1);
    if (kinds > 1) {
      w.header(Wkb.GEOMETRY_COLLECTION).integer(polygons.size() + lines.size() + points.size());
      polygons.forEach(p -> w.polygon(p.shell(), p.holes()));
      lines.forEach(w::lineString);
      points.forEach(p -> w.point(p[0], p[1]));
    } else if (!polygons.isEmpty()) {
      if (polygons.size() > 1) {
        w.header(Wkb.MULTI_POLYGON).integer(polygons.size());
      }
      polygons.forEach(p -> w.polygon(p.shell(), p.holes()));
    } else if (!lines.isEmpty()) {
      if (lines.size() > 1) {
        w.header(Wkb.MULTI_LINE_STRING).integer(lines.size());
      }
      lines.forEach(w::lineString);
    } else {
      if (points.size() > 1) {
        w.header(Wkb.MULTI_POINT).integer(points.size());
      }
      points.forEach(p -> w.point(p[0], p[1]));
    }
  }

  /** Whether the polygons, valid as they are, stay valid rounded ({@link RoundingCheck}). */
  private boolean keepsValid(double scale) {
    List<double[]> rings = new ArrayList<>();
    List<Integer> polygonOf = new ArrayList<>();
    for (int p = 0; p < polygons.size(); p++) {
      rings.add(polygons.get(p).shell());
      polygonOf.add(p);
      for (double[] h : polygons.get(p).holes()) {
        rings.add(h);
        polygonOf.add(p);
      }
    }
    return RoundingCheck.keepsValid(
        rings, polygonOf.stream().mapToInt(Integer::intValue).toArray(), scale);
  }

  /**
   * The piece as its renderer reads it: WKB, or when {@code gridDigits} is not negative a {@link
   * GridPiece} rounded to that many decimals. {@code fromValid} says the piece was cut exactly from
   * a valid geometry (no simplification, no ring dropped): then a polygonal piece that rounding
   * leaves valid ({@link RoundingCheck}) is marked so, and its renderer does not check it again. A
   * piece of wound rings is marked so ({@link GridPiece#wound}); if it cannot be a grid piece (a
   * coordinate too large for exact grid steps) its WKB is still read by the renderer's union, whose
   * roles give the same area.
   */
  public byte[] encoded(int gridDigits, boolean fromValid) {
    if (gridDigits < 0) {
      return wkb();
    }
    boolean keptValid =
        fromValid
            && !snapped
            && !wound
            && lines.isEmpty()
            && points.isEmpty()
            && !polygons.isEmpty()
            && keepsValid(Math.pow(10, gridDigits));
    return GridPiece.encode(this, gridDigits, keptValid, wound);
  }
}
