/**
 * Mapbox Vector Tile internals: the Protobuf wire format, geometry commands on the tile grid, and
 * the fields of a tile's layers for an archive's metadata.
 */
package io.tilebeam.codec.mvt;
