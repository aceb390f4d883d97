package io.tilebeam.transforms.tiling;

import java.io.Serializable;

/** A tile that a layer's plan covers, before it is keyed. */
public record PlannedTile(String layer, TileId tile) implements Serializable {}
