/**
 * TIFF and GeoTIFF: the reader of directories, tags, GeoKeys and compressed blocks ({@link
 * io.tilebeam.codec.tiff.TiffFile}), every size a header states checked against the file before
 * use; and the tiled, deflated GeoTIFF writer of raster tiles ({@link
 * io.tilebeam.codec.tiff.GeoTiffEncoder}).
 */
package io.tilebeam.codec.tiff;
