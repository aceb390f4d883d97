package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.tiling.TileMatrixSet;
import java.io.Serializable;

/**
 * What ReadFeatures needs of one layer: its source (a local file or a pinned GCS object, or a
 * PostGIS table) and format, how it is read (per tile through an index, or in one pass joined by
 * tile), in which CRS (east/north), and which tiles its features are assigned to (matrix set, zoom
 * range, buffer).
 *
 * @param file the source file, or null for a PostGIS source
 * @param table the PostGIS source, or null for a file
 * @param format geojson, geojsonseq, flatgeobuf or postgis
 * @param idColumn the FlatGeobuf column holding ids, or null for the default
 * @param indexed whether each claimed tile reads its own features (FlatGeobuf with an index,
 *     PostGIS) rather than taking them from one pass over the source
 * @param crs the source's CRS
 * @param tileMatrixSet the layer's tile matrix set
 * @param minZoom the layer's first zoom
 * @param maxZoom the layer's last zoom
 * @param bufferPixels the tile buffer
 */
public record SourceSpec(
    SourceFile file,
    PostGisSource table,
    String format,
    String idColumn,
    boolean indexed,
    CrsRef crs,
    TileMatrixSet tileMatrixSet,
    int minZoom,
    int maxZoom,
    double bufferPixels)
    implements Serializable {}
