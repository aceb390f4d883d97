package org.geotools.api.referencing.operation;

/**
 * A placeholder for GeoTools' type of that name, which GeoTools (not served here, and left out of
 * the peer's dependencies) would provide: planetiler-core names it in the signatures of classes it
 * loads at start-up (its bounds arguments) but calls none of it for a GeoJSON source in Web
 * Mercator. Part of the benchmark's peer only, never of tilebeam.
 */
public interface MathTransform {}
