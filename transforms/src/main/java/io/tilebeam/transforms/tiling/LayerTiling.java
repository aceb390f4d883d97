package io.tilebeam.transforms.tiling;

import io.tilebeam.transforms.crs.Bounds;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What decides a layer's tiles: its tile matrix set, its extents and an inclusive zoom range.
 *
 * <p>{@link #cover()} is pure and repeatable, so the planner and every worker agree on the tiles.
 */
public record LayerTiling(
    String layer, TileMatrixSet tileMatrixSet, List<Extent> extents, int minZoom, int maxZoom)
    implements Serializable {

  /** Checks the zoom range against the matrix set. */
  public LayerTiling {
    extents = List.copyOf(extents);
    if (minZoom > maxZoom) {
      throw new IllegalArgumentException(
          "zoom range [" + minZoom + ", " + maxZoom + "] is reversed");
    }
    tileMatrixSet.matrix(minZoom);
    tileMatrixSet.matrix(maxZoom);
  }

  /**
   * The layer's tiles: every extent normalised into the matrix set's CRS and covered at each zoom.
   *
   * @throws InvalidExtentException when an extent cannot be planned
   */
  public LayerCover cover() {
    List<Bounds> boxes = new ArrayList<>();
    for (Extent e : extents) {
      boxes.addAll(ExtentNormalizer.normalize(e, tileMatrixSet));
    }
    return cover(boxes);
  }

  /**
   * The layer's tiles from its extents already normalised into the matrix set's CRS (by a planner
   * that checked each extent on its own), covered at each zoom.
   */
  public LayerCover cover(List<Bounds> normalized) {
    List<TileRange> ranges = new ArrayList<>();
    for (int z = minZoom; z <= maxZoom; z++) {
      TileMatrix matrix = tileMatrixSet.matrix(z);
      for (Bounds box : normalized) {
        TileCover.cover(box, matrix).ifPresent(ranges::add);
      }
    }
    return new LayerCover(ranges);
  }
}
