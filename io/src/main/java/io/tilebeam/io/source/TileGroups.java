package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.cut.CutSpec;
import io.tilebeam.transforms.cut.FeatureTiles;
import io.tilebeam.transforms.tiling.TileId;
import io.tilebeam.transforms.tiling.TileMatrix;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.util.ArrayList;
import java.util.List;

/**
 * How an indexed source is read: claimed tiles are gathered into groups that share an ancestor
 * tile, and each group asks the index once, for the ancestor's buffered box, so a feature is read
 * and cut once per group instead of once per tile. Zooms go in bands of {@value #BAND} from the
 * layer's deepest: the group of a tile is its ancestor at the shallowest zoom of its band, which
 * holds at most 341 tiles (1 + 4 + 16 + 64 + 256). A matrix set whose zooms do not halve their
 * tiles has no ancestors: there, each tile is its own group.
 */
final class TileGroups {

  /** Zoom levels per band. */
  static final int BAND = 5;

  private TileGroups() {}

  /** The tile whose region holds {@code tile}'s group. */
  static TileId ancestor(TileId tile, CutSpec cut) {
    if (!quadtree(cut.tileMatrixSet(), cut.minZoom(), cut.maxZoom())) {
      return tile;
    }
    int band = (cut.maxZoom() - tile.z()) / BAND;
    int top = Math.max(cut.minZoom(), cut.maxZoom() - (band + 1) * BAND + 1);
    int up = tile.z() - top;
    return TileId.of(top, tile.x() >> up, tile.y() >> up);
  }

  /**
   * The boxes, in the source CRS, to ask the index for the group of {@code ancestor}: its search
   * boxes with the buffer at its own zoom (which holds every descendant's buffered box), grown by a
   * hair so that rounding in the envelope transform cannot lose a feature on the edge. A feature
   * found that reaches no claimed tile costs a cut that yields nothing.
   */
  static List<Bounds> queryBoxes(TileId ancestor, CutSpec cut) {
    List<Bounds> boxes =
        FeatureTiles.searchBoxes(
            ancestor, cut.sourceCrs(), cut.tileMatrixSet(), cut.bufferPixels());
    List<Bounds> grown = new ArrayList<>(boxes.size());
    for (Bounds b : boxes) {
      if (b.equals(FeatureTiles.EVERYTHING)) {
        grown.add(b);
        continue;
      }
      double margin = 1e-7 * Math.max(b.width(), b.height()) + 1e-9;
      grown.add(b.expand(margin, margin));
    }
    return grown;
  }

  /** Whether each zoom from {@code minZoom} on splits every tile of the one above into four. */
  static boolean quadtree(TileMatrixSet tms, int minZoom, int maxZoom) {
    for (int z = minZoom + 1; z <= maxZoom; z++) {
      TileMatrix a = tms.matrix(z - 1);
      TileMatrix b = tms.matrix(z);
      if (b.matrixWidth() != 2 * a.matrixWidth()
          || b.matrixHeight() != 2 * a.matrixHeight()
          || b.originX() != a.originX()
          || b.originY() != a.originY()
          || b.rowsFromBottom() != a.rowsFromBottom()
          || Math.abs(b.tileSpanX() * 2 - a.tileSpanX()) > 1e-12 * a.tileSpanX()
          || Math.abs(b.tileSpanY() * 2 - a.tileSpanY()) > 1e-12 * a.tileSpanY()) {
        return false;
      }
    }
    return true;
  }
}
