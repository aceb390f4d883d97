/**
 * Tile matrix sets, extents (antimeridian split, latitude clamp), the tiles covering a layer, and
 * the PlanTiles stage.
 */
package io.tilebeam.transforms.tiling;
