package io.tilebeam.transforms.cut;

import io.tilebeam.transforms.tiling.TileId;

/**
 * A last say on whether one component of a geometry (a polygon of a multi-polygon, a line, a point,
 * in the order {@link TileCutter} lists them) goes to a tile it reaches. Reading a source per tile
 * through an index finds only the features whose box meets the tile's search boxes; the gate lets
 * the single pass over a file apply the same rule, so both ways give the same pieces.
 */
public interface ComponentGate {

  /** Admits every component everywhere it reaches. */
  ComponentGate ALL = (component, tile) -> true;

  /** Whether component {@code component} goes to {@code tile}. */
  boolean admits(int component, TileId tile);
}
