package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsResolver;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Antimeridian;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.locationtech.jts.geom.Envelope;
import org.opengis.referencing.operation.TransformException;

/**
 * The search-box rule that makes a per-tile index read and a single pass over a file agree. A
 * component of a geometry (each on its own, so that a multi-polygon cut at the antimeridian does
 * not claim the whole width of the world) goes to tile T only when its envelope meets one of T's
 * {@link #searchBoxes}: the buffered tile transformed back into the source CRS. An index answers
 * exactly that question; {@code FeatureCutter} asks it of every piece, so both ways give the same
 * pieces, also where the transform does not map boxes to boxes (a UTM source in Web Mercator tiles)
 * and a straight segment in the matrix set's CRS strays beyond what the source's box can reach.
 *
 * <p>Where it does map boxes to boxes ({@link #boxPreserving}), the rule follows from the geometry
 * meeting the tile and need not be asked.
 */
public final class FeatureTiles {

  /** A search box holding every coordinate. */
  public static final Bounds EVERYTHING =
      new Bounds(-Double.MAX_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE);

  // Search boxes of recent tiles: one pass over a file asks for the same few tiles again and again.
  private static final Map<BoxKey, List<Bounds>> BOXES =
      Collections.synchronizedMap(
          new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<BoxKey, List<Bounds>> eldest) {
              return size() > 65_536;
            }
          });

  /** What a tile's search boxes depend on (strings keep their hash: a cheap key). */
  private record BoxKey(String sourceCrs, String tms, TileId tile, double bufferPixels) {}

  private FeatureTiles() {}

  /**
   * Whether boxes in {@code sourceCrs} map to boxes in the matrix set's CRS, axis by axis and in
   * order, so that a geometry reaching into a tile always meets the tile's search boxes: the same
   * CRS, or WGS 84 longitude/latitude into Web Mercator or WGS 84 tiles (both are functions of
   * longitude alone in x and of latitude alone in y, increasing).
   */
  public static boolean boxPreserving(CrsRef sourceCrs, TileMatrixSet tms) {
    String s = sourceCrs.identity();
    String t = tms.crs().identity();
    if (s.equals(t)) {
      return true;
    }
    boolean wgs84 = s.equals("EPSG:4326") || s.equals(CrsResolver.CRS84);
    return wgs84 && (t.equals("EPSG:3857") || t.equals("EPSG:4326") || t.equals(CrsResolver.CRS84));
  }

  /**
   * The boxes, in {@code sourceCrs}, that a part must meet to go to {@code tile}: the buffered tile
   * transformed back with the curvature-aware envelope transform. In a geographic source a box
   * reaching past ±180° is wrapped into two, since features there are cut at the antimeridian. A
   * tile that cannot be transformed into the source CRS (the whole world in a UTM zone's
   * coordinates) gets {@link #EVERYTHING}, which constrains nothing.
   */
  public static List<Bounds> searchBoxes(
      TileId tile, CrsRef sourceCrs, TileMatrixSet tms, double bufferPixels) {
    BoxKey key = new BoxKey(sourceCrs.identity(), tms.identity(), tile, bufferPixels);
    List<Bounds> boxes = BOXES.get(key);
    if (boxes == null) {
      boxes = computeSearchBoxes(tile, sourceCrs, tms, bufferPixels);
      BOXES.put(key, boxes);
    }
    return boxes;
  }

  private static List<Bounds> computeSearchBoxes(
      TileId tile, CrsRef sourceCrs, TileMatrixSet tms, double bufferPixels) {
    TileMatrix m = tms.matrix(tile.z());
    Bounds buffered = grown(m.tileBounds(tile.x(), tile.y()), m, bufferPixels);
    List<Bounds> transformed;
    try {
      transformed = CrsTransforms.transform(buffered, tms.crs(), sourceCrs);
    } catch (TransformException | IllegalArgumentException e) {
      return List.of(EVERYTHING);
    }
    if (!Antimeridian.appliesTo(sourceCrs)) {
      return List.copyOf(transformed);
    }
    List<Bounds> out = new ArrayList<>();
    for (Bounds b : transformed) {
      if (b.width() >= 360) {
        out.add(new Bounds(-180, b.minY(), 180, b.maxY()));
      } else if (b.minX() < -180) {
        out.add(new Bounds(-180, b.minY(), b.maxX(), b.maxY()));
        out.add(new Bounds(b.minX() + 360, b.minY(), 180, b.maxY()));
      } else if (b.maxX() > 180) {
        out.add(new Bounds(b.minX(), b.minY(), 180, b.maxY()));
        out.add(new Bounds(-180, b.minY(), b.maxX() - 360, b.maxY()));
      } else {
        out.add(b);
      }
    }
    return List.copyOf(out);
  }

  /** Whether the envelope {@code e} (in {@code sourceCrs}) meets one of the tile's search boxes. */
  public static boolean meetsSearchBoxes(
      Envelope e, TileId tile, CrsRef sourceCrs, TileMatrixSet tms, double bufferPixels) {
    if (sourceCrs.identity().equals(tms.crs().identity())) {
      // The search box is the buffered tile itself: the first condition already says it.
      return true;
    }
    for (Bounds b : searchBoxes(tile, sourceCrs, tms, bufferPixels)) {
      if (e.getMaxX() >= b.minX()
          && e.getMinX() <= b.maxX()
          && e.getMaxY() >= b.minY()
          && e.getMinY() <= b.maxY()) {
        return true;
      }
    }
    return false;
  }

  private static Bounds grown(Bounds box, TileMatrix m, double bufferPixels) {
    return box.expand(
        bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
        bufferPixels * m.tileSpanY() / m.tileHeightPixels());
  }
}
