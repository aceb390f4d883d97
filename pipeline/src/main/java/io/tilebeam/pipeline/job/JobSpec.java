package io.tilebeam.pipeline.job;

import io.tilebeam.io.source.SourceOptions;
import java.util.List;

/**
 * A job as its YAML file states it, checked for form but not yet resolved (see {@link JobPlan}).
 *
 * @param namespace the effect the outputs belong to
 * @param layers the layers, in file order
 */
public record JobSpec(String namespace, List<LayerSpec> layers) {

  /** Copies the layer list. */
  public JobSpec {
    layers = List.copyOf(layers);
  }

  /**
   * One layer of a job.
   *
   * @param name {@code [a-z0-9_-]{1,64}}
   * @param sourceUri path, {@code file:} URI or {@code gs://} object of the source, or the
   *     PostgreSQL URL of a {@code postgis} source; for a raster mosaic, its sources joined by ", "
   *     (for messages)
   * @param sourceUris every source location the job gives: one, or a raster mosaic's, in order
   * @param sourceFormat {@code geojson}, {@code geojsonseq}, {@code flatgeobuf} or {@code postgis}
   * @param sourceCrs the source CRS as spelled, or null to take the one the source declares
   * @param sourceOptions the format-specific source fields
   * @param extents the extents to cover
   * @param tileMatrixSet the matrix set name
   * @param minZoom the first zoom
   * @param maxZoom the last zoom, inclusive
   * @param targetCrs the output CRS as spelled
   * @param outputUri the output directory, {@code file:} URI, {@code gs://bucket/prefix}, or the
   *     {@code jdbc:postgresql:} URL of a PostGIS database
   * @param outputFormat a tile encoding ({@code geojson}, {@code flatgeobuf}, {@code mvt}, a raster
   *     encoding), {@code pmtiles} (one archive of the layer) or {@code postgis}
   * @param outputTable the table ({@code name} or {@code schema.name}) of a {@code postgis} output,
   *     else null
   * @param outputTiles the encoding of the tiles inside a {@code pmtiles} archive as the job gives
   *     it, else null (the default of the layer's kind)
   * @param params the byte-changing parameters the job sets, of the layer's kind: {@link
   *     VectorParams} or {@link RasterParams} (the defaults are filled in at planning)
   */
  public record LayerSpec(
      String name,
      String sourceUri,
      List<String> sourceUris,
      String sourceFormat,
      String sourceCrs,
      SourceOptions sourceOptions,
      List<ExtentSpec> extents,
      String tileMatrixSet,
      int minZoom,
      int maxZoom,
      String targetCrs,
      String outputUri,
      String outputFormat,
      String outputTable,
      String outputTiles,
      LayerParams params) {

    /** Copies the extent list. */
    public LayerSpec {
      sourceUris = List.copyOf(sourceUris);
      extents = List.copyOf(extents);
    }
  }

  /**
   * An extent: {@code [west, south, east, north]} in {@code crs}, east/north axis order.
   *
   * @param bbox the four numbers
   * @param crs the CRS as spelled
   */
  public record ExtentSpec(double[] bbox, String crs) {}
}
