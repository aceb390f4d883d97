/**
 * The vector engine's first half: each feature cut once into pieces for every claimed tile of every
 * zoom (buffered, simplified, kept valid), in the matrix set's CRS.
 */
package io.tilebeam.transforms.cut;
