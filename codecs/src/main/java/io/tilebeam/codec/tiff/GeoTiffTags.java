package io.tilebeam.codec.tiff;

import java.io.IOException;

/**
 * Checks of a GeoTIFF's georeferencing tags before Apache SIS reads them: the GeoKey directory's
 * key count and every key's place must fit in the arrays it points into, and the pixel scale, tie
 * points and model transformation must be finite, with a scale that is not zero. A file that breaks
 * one is refused naming the tag and the value, rather than read as having no CRS, or as an image
 * that covers nothing (every tile no data, silently).
 */
final class GeoTiffTags {

  static final int MODEL_PIXEL_SCALE = 33550;
  static final int MODEL_TIEPOINT = 33922;
  static final int MODEL_TRANSFORMATION = 34264;
  static final int GEO_KEY_DIRECTORY = 34735;
  static final int GEO_DOUBLE_PARAMS = 34736;
  static final int GEO_ASCII_PARAMS = 34737;

  private GeoTiffTags() {}

  /**
   * Checks the georeferencing tags of a TIFF's first directory.
   *
   * @throws IOException naming the tag and what is wrong with it
   */
  static void check(TiffTags tags) throws IOException {
    checkKeys(tags);
    double[] scale = tags.reals(MODEL_PIXEL_SCALE);
    if (scale != null) {
      if (scale.length < 2) {
        throw new IOException("its ModelPixelScale tag holds " + scale.length + " values, not 3");
      }
      for (int i = 0; i < 2; i++) {
        if (!Double.isFinite(scale[i]) || scale[i] == 0) {
          throw new IOException(
              "its ModelPixelScale tag gives a pixel "
                  + (i == 0 ? "width" : "height")
                  + " of "
                  + scale[i]
                  + ": pixels must have a finite size that is not zero");
        }
      }
    }
    finite(tags.reals(MODEL_TIEPOINT), "ModelTiepoint");
    double[] m = tags.reals(MODEL_TRANSFORMATION);
    if (m != null) {
      if (m.length != 16) {
        throw new IOException("its ModelTransformation tag holds " + m.length + " values, not 16");
      }
      finite(m, "ModelTransformation");
      double determinant = m[0] * m[5] - m[1] * m[4];
      if (determinant == 0 || !Double.isFinite(determinant)) {
        throw new IOException(
            "its ModelTransformation maps pixels onto a line or a point (its 2 x 2 part has"
                + " determinant "
                + determinant
                + "): it cannot place the image");
      }
    }
  }

  private static void finite(double[] values, String tag) throws IOException {
    if (values == null) {
      return;
    }
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IOException("its " + tag + " tag holds " + values[i] + " (value " + i + ")");
      }
    }
  }

  /** The GeoKey directory: a header of four, then four shorts a key, each key's value in place. */
  private static void checkKeys(TiffTags tags) throws IOException {
    long[] dir = tags.numbers(GEO_KEY_DIRECTORY);
    if (dir == null) {
      return;
    }
    if (dir.length < 4) {
      throw new IOException(
          "its GeoKeyDirectory tag holds " + dir.length + " values, fewer than its header's 4");
    }
    long keys = dir[3];
    if (4 + 4 * keys > dir.length) {
      throw new IOException(
          "its GeoKeyDirectory claims "
              + keys
              + " keys but holds "
              + dir.length
              + " values, room for "
              + (dir.length - 4) / 4);
    }
    double[] doubles = tags.reals(GEO_DOUBLE_PARAMS);
    String ascii = tags.text(GEO_ASCII_PARAMS);
    for (int k = 0; k < keys; k++) {
      int at = 4 + 4 * k;
      long key = dir[at];
      long location = dir[at + 1];
      long count = dir[at + 2];
      long offset = dir[at + 3];
      long size =
          location == 0
              ? 1
              : location == GEO_KEY_DIRECTORY
                  ? dir.length
                  : location == GEO_DOUBLE_PARAMS
                      ? (doubles == null ? 0 : doubles.length)
                      : location == GEO_ASCII_PARAMS
                          ? (ascii == null ? 0 : ascii.length() + 1)
                          : -1;
      boolean fits = location == 0 ? count <= 1 : size >= 0 && offset + count <= size;
      if (!fits) {
        throw new IOException(
            "its GeoKey "
                + key
                + " points at "
                + count
                + " values from "
                + offset
                + " of tag "
                + location
                + ", which holds "
                + Math.max(size, 0));
      }
    }
  }
}
