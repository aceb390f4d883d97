/**
 * The pixels of one tile as the encoders take them: {@link io.tilebeam.codec.pixels.RasterTile} of
 * bands of one {@link io.tilebeam.codec.pixels.SampleType}, with its coverage.
 */
package io.tilebeam.codec.pixels;
