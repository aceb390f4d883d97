package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.cut.CutSpec;
import java.io.Serializable;

/**
 * What ReadFeatures needs of one layer: its source (a local file or a pinned GCS object, or a
 * PostGIS table) and format, how it is read (for groups of claimed tiles through an index, or in
 * one pass), and how its features are cut into tile pieces ({@link CutSpec}: source CRS, matrix
 * set, zooms, buffer, simplification).
 *
 * @param file the source file, or null for a PostGIS source
 * @param table the PostGIS source, or null for a file
 * @param format geojson, geojsonseq, flatgeobuf or postgis
 * @param idColumn the FlatGeobuf column holding ids, or null for the default
 * @param indexed whether groups of claimed tiles read their own features (FlatGeobuf with an index,
 *     PostGIS) rather than taking them from one pass over the source
 * @param cut how features are cut into pieces
 * @param limits the reading limits of a GeoJSON or GeoJSONSeq source
 */
public record SourceSpec(
    SourceFile file,
    PostGisSource table,
    String format,
    String idColumn,
    boolean indexed,
    CutSpec cut,
    JsonLimits limits)
    implements Serializable {

  /** The source's CRS, east/north. */
  public CrsRef crs() {
    return cut.sourceCrs();
  }
}
