/**
 * The vector engine's second half: pieces taken to the target CRS, rounded to the layer's precision
 * and repaired where invalid; the ReprojectTiles stage.
 */
package io.tilebeam.transforms.reproject;
