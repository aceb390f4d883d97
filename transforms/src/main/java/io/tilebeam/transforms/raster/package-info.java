/**
 * The raster engine, beside the vector engine: source windows read through the TIFF codec,
 * resampled into each tile's grid (nearest, bilinear, cubic, average, mode), mosaics, and the
 * RenderRasters stage.
 */
package io.tilebeam.transforms.raster;
