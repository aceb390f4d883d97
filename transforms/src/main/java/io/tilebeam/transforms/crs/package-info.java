/**
 * Coordinate reference systems through Apache SIS: spellings resolved to one identity, east/north
 * axis order forced, curvature-aware envelope transforms, the embedded EPSG database.
 */
package io.tilebeam.transforms.crs;
