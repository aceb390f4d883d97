/** PMTiles v3 archives: header, directories in Hilbert order, writer and reader. */
package io.tilebeam.codec.pmtiles;
