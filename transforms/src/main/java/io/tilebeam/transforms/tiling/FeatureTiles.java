package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.crs.CrsTransforms;
import io.tilebeam.transforms.feature.Antimeridian;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.opengis.referencing.operation.TransformException;

/**
 * Which tiles a source geometry goes to. A part of the geometry (each component on its own, so that
 * a multi-polygon cut at the antimeridian does not claim the whole width of the world) goes to tile
 * T when both hold:
 *
 * <ol>
 *   <li>its envelope, transformed into the matrix set's CRS with a curvature-aware envelope
 *       transform and grown by the tile buffer, covers T; and
 *   <li>its envelope meets one of T's {@link #searchBoxes}: the buffered tile transformed back into
 *       the source CRS.
 * </ol>
 *
 * The first lists the candidates from the geometry (the one pass over a file); the second is what
 * an index can answer from the tile (a per-tile read). Asking both makes the two ways give the same
 * features exactly, also where the transform does not map boxes to boxes (a UTM source in Web
 * Mercator tiles), where a transformed envelope can reach tiles the geometry does not.
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
   * The tiles of zooms {@code minZoom..maxZoom} that {@code geometry} (in {@code sourceCrs}) goes
   * to, with a buffer of {@code bufferPixels}.
   *
   * @throws TransformException when an envelope cannot be transformed
   */
  public static Set<TileId> of(
      Geometry geometry,
      CrsRef sourceCrs,
      TileMatrixSet tms,
      int minZoom,
      int maxZoom,
      double bufferPixels)
      throws TransformException {
    Set<TileId> tiles = new LinkedHashSet<>();
    for (int i = 0; i < geometry.getNumGeometries(); i++) {
      Envelope e = geometry.getGeometryN(i).getEnvelopeInternal();
      if (e.isNull()) {
        continue;
      }
      for (Bounds box : transformed(e, sourceCrs, tms)) {
        for (int z = minZoom; z <= maxZoom; z++) {
          TileRange r = cover(box, tms.matrix(z), bufferPixels);
          if (r == null) {
            continue;
          }
          for (long y = r.minY(); y <= r.maxY(); y++) {
            for (long x = r.minX(); x <= r.maxX(); x++) {
              TileId tile = new TileId(z, x, y);
              if (!tiles.contains(tile)
                  && meetsSearchBoxes(e, tile, sourceCrs, tms, bufferPixels)) {
                tiles.add(tile);
              }
            }
          }
        }
      }
    }
    return tiles;
  }

  /**
   * Whether {@code tile} is among {@link #of}'s tiles for {@code geometry}: the same rule, asked of
   * one tile.
   *
   * @throws TransformException when an envelope cannot be transformed
   */
  public static boolean covers(
      Geometry geometry, CrsRef sourceCrs, TileMatrixSet tms, TileId tile, double bufferPixels)
      throws TransformException {
    for (int i = 0; i < geometry.getNumGeometries(); i++) {
      Envelope e = geometry.getGeometryN(i).getEnvelopeInternal();
      if (e.isNull()) {
        continue;
      }
      for (Bounds box : transformed(e, sourceCrs, tms)) {
        TileRange r = cover(box, tms.matrix(tile.z()), bufferPixels);
        if (r != null
            && r.contains(tile)
            && meetsSearchBoxes(e, tile, sourceCrs, tms, bufferPixels)) {
          return true;
        }
      }
    }
    return false;
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

  private static boolean meetsSearchBoxes(
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

  private static List<Bounds> transformed(Envelope e, CrsRef sourceCrs, TileMatrixSet tms)
      throws TransformException {
    return CrsTransforms.transform(
        new Bounds(e.getMinX(), e.getMinY(), e.getMaxX(), e.getMaxY()), sourceCrs, tms.crs());
  }

  private static TileRange cover(Bounds box, TileMatrix m, double bufferPixels) {
    return TileCover.cover(grown(box, m, bufferPixels), m).orElse(null);
  }

  private static Bounds grown(Bounds box, TileMatrix m, double bufferPixels) {
    return box.expand(
        bufferPixels * m.tileSpanX() / m.tileWidthPixels(),
        bufferPixels * m.tileSpanY() / m.tileHeightPixels());
  }
}
