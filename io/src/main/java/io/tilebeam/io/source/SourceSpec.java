package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * What ReadFeatures needs of one layer: its source's bytes (a local file or a pinned GCS object)
 * and format, in which CRS (east/north), and which tiles its features are assigned to (matrix set,
 * zoom range, buffer).
 */
public record SourceSpec(
    SourceFile file,
    String format,
    CrsRef crs,
    TileMatrixSet tileMatrixSet,
    int minZoom,
    int maxZoom,
    double bufferPixels)
    implements Serializable {}
