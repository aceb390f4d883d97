package io.tilebeam.transforms.cut;

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

  /**
   * The piece as its renderer reads it: WKB, or when {@code gridDigits} is not negative a {@link
   * GridPiece} rounded to that many decimals.
   */
  public byte[] encoded(int gridDigits) {
    return gridDigits < 0 ? wkb() : GridPiece.encode(this, gridDigits);
  }
}
