package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Antimeridian;
import io.tilebeam.transforms.feature.Feature;
import io.tilebeam.transforms.tiling.FeatureTiles;
import io.tilebeam.transforms.tiling.TileId;
import java.util.List;
import java.util.Set;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.opengis.referencing.operation.TransformException;

/**
 * Which tiles a source feature goes to, the same for a single pass over a file and for a per-tile
 * read of an indexed source: in a geographic source the geometry is first cut at ±180° ({@link
 * Antimeridian}), then {@link FeatureTiles} decides from its parts' envelopes.
 */
final class FeaturePlacement {

  /** A feature ready to be placed: cut where needed, with its geometry read once. */
  record Placed(Feature feature, Geometry geometry) {}

  private final SourceSpec spec;
  private final boolean geographic;
  private final WKBReader reader = new WKBReader();
  private final WKBWriter writer = new WKBWriter(2);

  FeaturePlacement(SourceSpec spec) {
    this.spec = spec;
    this.geographic = Antimeridian.appliesTo(spec.crs());
  }

  /**
   * The feature with its geometry read, and cut at the antimeridian in a geographic source.
   *
   * @throws ParseException when its WKB cannot be read
   */
  Placed prepare(Feature original) throws ParseException {
    Geometry g = reader.read(original.wkb());
    if (geographic) {
      Geometry split = Antimeridian.split(g);
      if (split != g) {
        return new Placed(
            new Feature(original.id(), writer.write(split), original.properties()), split);
      }
    }
    return new Placed(original, g);
  }

  /**
   * Every tile of the layer's zooms the feature may fall in; none for an empty geometry.
   *
   * @throws TransformException when an envelope cannot be placed (a pole in Web Mercator)
   */
  Set<TileId> tiles(Placed p) throws TransformException {
    if (p.geometry().isEmpty()) {
      return Set.of();
    }
    return FeatureTiles.of(
        p.geometry(),
        spec.crs(),
        spec.tileMatrixSet(),
        spec.minZoom(),
        spec.maxZoom(),
        spec.bufferPixels());
  }

  /**
   * Whether {@link #tiles} would include {@code tile}, without listing the others.
   *
   * @throws TransformException when an envelope cannot be placed
   */
  boolean covers(Placed p, TileId tile) throws TransformException {
    return !p.geometry().isEmpty()
        && FeatureTiles.covers(
            p.geometry(), spec.crs(), spec.tileMatrixSet(), tile, spec.bufferPixels());
  }

  /** The boxes, in the source's CRS, to look up the tile's features in. */
  List<io.tilebeam.transforms.tiling.Bounds> searchBoxes(TileId tile) {
    return FeatureTiles.searchBoxes(tile, spec.crs(), spec.tileMatrixSet(), spec.bufferPixels());
  }
}
