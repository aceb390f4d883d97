package io.tilebeam.transforms.cut;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts rings and lines into {@link Stripes} in one walk over their segments: each segment is handed
 * to the few stripes it meets, so a ring over many stripes costs its vertices plus its crossings,
 * not vertices × stripes (the way geojson-vt's {@code clip.js} and Planetiler's {@code
 * TiledGeometry} slice columns and then rows).
 *
 * <p>A ring is clipped to each stripe by Sutherland–Hodgman against the stripe's two edges: the
 * result is the ring's area inside the stripe, exactly, where a part that leaves and comes back on
 * the same side is joined along the edge (a zero-width bridge). Bridges carry the information that
 * the rows below need: a tile wholly inside a polygon receives only bridge segments, which trace
 * the tile's square without any of the polygon's vertices. {@link TileAssembler} removes bridges at
 * the end.
 *
 * <p>Crossing points take the edge's value exactly, and the other coordinate is interpolated from
 * the segment's endpoints in a fixed order, so a segment shared by two rings (a border between two
 * countries) is cut at the same point in both.
 */
final class StripeCutter {

  private StripeCutter() {}

  /**
   * Clips a closed ring (no closing point) to the stripes {@code from..from + wanted.length - 1}
   * that {@code wanted} marks. Returns one clipped ring per stripe the ring reached, null
   * elsewhere, indexed from {@code from}.
   */
  static PointBuffer[] ring(PointBuffer ring, Stripes s, long from, boolean[] wanted) {
    PointBuffer[] out = new PointBuffer[wanted.length];
    int n = ring.size();
    if (n == 0) {
      return out;
    }
    boolean y = s.alongY();
    long to = from + wanted.length - 1;
    if (withinEvery(ring, s, from, to)) {
      // Most features are small beside a tile: wholly inside every stripe they meet, each of
      // those stripes gets the ring as it is, which is what the walk below would copy out.
      for (int slot = 0; slot < wanted.length; slot++) {
        out[slot] = wanted[slot] ? ring : null;
      }
      return out;
    }
    double px = ring.x(n - 1);
    double py = ring.y(n - 1);
    for (int k = 0; k < n; k++) {
      double qx = ring.x(k);
      double qy = ring.y(k);
      double vp = y ? py : px;
      double vq = y ? qy : qx;
      double op = y ? px : py;
      double oq = y ? qx : qy;
      long a = Math.max(from, s.first(Math.min(vp, vq), Math.max(vp, vq)));
      long b = Math.min(to, s.last(Math.min(vp, vq), Math.max(vp, vq)));
      for (long i = a; i <= b && a >= 0; i++) {
        int slot = (int) (i - from);
        if (!wanted[slot]) {
          continue;
        }
        PointBuffer o = out[slot];
        if (o == null) {
          o = new PointBuffer(16);
          out[slot] = o;
        }
        double lo = s.lo(i);
        double hi = s.hi(i);
        if (vp < lo) {
          add(o, y, lo, crossing(vp, op, vq, oq, lo));
        } else if (vp > hi) {
          add(o, y, hi, crossing(vp, op, vq, oq, hi));
        }
        if (vq < lo) {
          add(o, y, lo, crossing(vp, op, vq, oq, lo));
        } else if (vq > hi) {
          add(o, y, hi, crossing(vp, op, vq, oq, hi));
        } else {
          o.add(qx, qy);
        }
      }
      px = qx;
      py = qy;
    }
    return out;
  }

  /**
   * Whether every point of the ring lies within each of the stripes {@code from..to} (edges
   * included), so that clipping to any of them leaves it as it is. The ring's range on the axis is
   * checked against the stripes' edges, the values the walk clips at.
   */
  private static boolean withinEvery(PointBuffer ring, Stripes s, long from, long to) {
    double lo = Double.NEGATIVE_INFINITY;
    double hi = Double.POSITIVE_INFINITY;
    for (long i = from; i <= to; i++) {
      lo = Math.max(lo, s.lo(i));
      hi = Math.min(hi, s.hi(i));
    }
    boolean y = s.alongY();
    for (int k = 0; k < ring.size(); k++) {
      double v = y ? ring.y(k) : ring.x(k);
      if (v < lo || v > hi) {
        return false;
      }
    }
    return true;
  }

  /** The parts of a line inside one stripe; the last one is still growing while {@code open}. */
  static final class LineParts {
    final List<PointBuffer> parts = new ArrayList<>(2);
    boolean open;
  }

  /**
   * Clips an open line to the wanted stripes: each stripe gets the parts of the line inside it, a
   * new part each time the line comes back in. Indexed from {@code from}, null where none.
   */
  static LineParts[] line(PointBuffer line, Stripes s, long from, boolean[] wanted) {
    LineParts[] out = new LineParts[wanted.length];
    boolean y = s.alongY();
    long to = from + wanted.length - 1;
    for (int k = 1; k < line.size(); k++) {
      double px = line.x(k - 1);
      double py = line.y(k - 1);
      double qx = line.x(k);
      double qy = line.y(k);
      double vp = y ? py : px;
      double vq = y ? qy : qx;
      double op = y ? px : py;
      double oq = y ? qx : qy;
      long a = Math.max(from, s.first(Math.min(vp, vq), Math.max(vp, vq)));
      long b = Math.min(to, s.last(Math.min(vp, vq), Math.max(vp, vq)));
      for (long i = a; i <= b && a >= 0; i++) {
        int slot = (int) (i - from);
        if (!wanted[slot]) {
          continue;
        }
        if (out[slot] == null) {
          out[slot] = new LineParts();
        }
        LineParts o = out[slot];
        double lo = s.lo(i);
        double hi = s.hi(i);
        if (vp < lo || vp > hi) {
          PointBuffer part = new PointBuffer(8);
          double edge = vp < lo ? lo : hi;
          add(part, y, edge, crossing(vp, op, vq, oq, edge));
          o.parts.add(part);
        } else if (!o.open) {
          PointBuffer part = new PointBuffer(8);
          part.add(px, py);
          o.parts.add(part);
        }
        PointBuffer part = o.parts.get(o.parts.size() - 1);
        if (vq < lo || vq > hi) {
          double edge = vq < lo ? lo : hi;
          add(part, y, edge, crossing(vp, op, vq, oq, edge));
          o.open = false;
        } else {
          part.add(qx, qy);
          o.open = true;
        }
      }
    }
    return out;
  }

  private static void add(PointBuffer o, boolean alongY, double edge, double other) {
    if (alongY) {
      o.add(other, edge);
    } else {
      o.add(edge, other);
    }
  }

  /**
   * The other coordinate where the segment crosses {@code edge} on the cut axis, interpolated from
   * the endpoint with the smaller axis value (then the smaller other coordinate), so that the same
   * segment walked either way gives the same bits; kept within the segment's range.
   */
  static double crossing(double va, double oa, double vb, double ob, double edge) {
    if (va > vb || (va == vb && oa > ob)) {
      double t = va;
      va = vb;
      vb = t;
      t = oa;
      oa = ob;
      ob = t;
    }
    double o = oa + (edge - va) * (ob - oa) / (vb - va);
    return Math.max(Math.min(oa, ob), Math.min(Math.max(oa, ob), o));
  }
}
