/**
 * Tile encodings as a job names them: a {@link io.tilebeam.io.format.TileFormat} is a {@link
 * io.tilebeam.io.format.VectorFormat} (GeoJSON, FlatGeobuf, MVT, GeoParquet) or a {@link
 * io.tilebeam.io.format.RasterFormat} (GeoTIFF, PNG, Terrarium, Terrain-RGB), built on the codecs.
 */
package io.tilebeam.io.format;
