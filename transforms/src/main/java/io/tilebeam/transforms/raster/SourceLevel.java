package io.tilebeam.transforms.raster;

import io.tilebeam.codec.tiff.TiffDirectory;
import org.opengis.referencing.operation.MathTransform;

/**
 * One resolution level of a source: its full-resolution image (level 0) or one of its overviews, as
 * the TIFF stores it, with where it lies: an overview of {@code w × h} pixels spans the full
 * image's extent, each of its pixels {@code width0 / w} by {@code height0 / h} full-resolution
 * pixels (as GDAL georeferences overviews).
 *
 * @param index 0 for the full resolution, then coarser
 * @param image the TIFF directory holding its pixels
 * @param ratio how many level-0 pixels one of its pixels spans across
 * @param crsToGrid the source's CRS to the level's pixel coordinates, pixel (i, j) covering [i, i +
 *     1) × [j, j + 1)
 * @param mask the level's transparency mask (GDAL's internal mask: 0 where the image has no data),
 *     or null when it has none
 */
record SourceLevel(
    int index, TiffDirectory image, double ratio, MathTransform crsToGrid, TiffDirectory mask) {

  /** A level without a mask. */
  SourceLevel(int index, TiffDirectory image, double ratio, MathTransform crsToGrid) {
    this(index, image, ratio, crsToGrid, null);
  }

  /** Columns. */
  long width() {
    return image.width();
  }

  /** Rows. */
  long height() {
    return image.height();
  }
}
