package io.tilebeam.io.source;

import io.tilebeam.io.Locations;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * What ReadFeatures needs of one layer: where its source is, in which CRS (east/north), and which
 * tiles its features are assigned to (matrix set, zoom range, buffer).
 */
public record SourceSpec(
    String uri,
    String format,
    CrsRef crs,
    TileMatrixSet tileMatrixSet,
    int minZoom,
    int maxZoom,
    double bufferPixels)
    implements Serializable {

  /** The local path of the source: a path or a {@code file:} URI. */
  public java.nio.file.Path path() {
    return Locations.localPath(uri);
  }
}
