/**
 * Sources: each format found, checked and identified at planning ({@link
 * io.tilebeam.io.source.SourceFormat}), read as features ({@link
 * io.tilebeam.io.source.FeatureSource}) or as pixels ({@link io.tilebeam.io.source.RasterSource});
 * the ReadFeatures stage.
 */
package io.tilebeam.io.source;
