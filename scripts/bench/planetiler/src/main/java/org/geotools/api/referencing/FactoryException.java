package org.geotools.api.referencing;

/**
 * A placeholder for GeoTools' exception of that name, for the same reason as {@link
 * org.geotools.api.referencing.operation.MathTransform}: named by planetiler-core, never thrown on
 * the peer's path. Part of the benchmark's peer only, never of tilebeam.
 */
public class FactoryException extends Exception {
  private static final long serialVersionUID = 1L;
}
