/**
 * PNG tiles ({@link io.tilebeam.codec.png.PngEncoder}) and the elevation encodings drawn in them
 * (Terrarium, Terrain-RGB).
 */
package io.tilebeam.codec.png;
