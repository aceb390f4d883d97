package io.tilebeam.io.sink;

import io.tilebeam.io.format.MvtFormat;
import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.S3Settings;
import io.tilebeam.io.storage.Stores;
import java.io.Serializable;
import java.nio.file.Path;

/**
 * A layer published as one PMTiles archive, {@code <output>/<layer>.pmtiles}: its tiles are first
 * published one by one into a staging area the job owns, {@code <output>/_staging/<layer>/…}, by
 * the ordinary sinks (so claims, keys, reruns and kills work as for any layer), and the pack stage
 * makes the archive from them.
 *
 * @param location the output the archive goes in: a directory or a GCS prefix
 * @param layer the layer's name, which names the archive
 * @param tiles the encoding of the tiles inside (MVT, or a raster encoding)
 * @param minZoom the layer's first zoom
 * @param maxZoom the layer's last zoom
 * @param stores how object stores are reached; used by bucket outputs only
 */
public record ArchiveSpec(
    OutputLocation location,
    String layer,
    TileFormat tiles,
    int minZoom,
    int maxZoom,
    Stores stores)
    implements Serializable {

  /** The directory (or object prefix) below an output where archived layers' tiles are staged. */
  public static final String STAGING_DIR = "_staging";

  /** The output format that asks for an archive. */
  public static final String FORMAT = "pmtiles";

  /** An archive whose object stores are GCS as {@code gcs} says and S3 as the environment says. */
  public ArchiveSpec(
      OutputLocation location,
      String layer,
      TileFormat tiles,
      int minZoom,
      int maxZoom,
      GcsSettings gcs) {
    this(location, layer, tiles, minZoom, maxZoom, Stores.of(gcs));
  }

  /** How Google Cloud Storage is reached. */
  public GcsSettings gcs() {
    return stores.gcs();
  }

  /** How S3 is reached. */
  public S3Settings s3() {
    return stores.s3();
  }

  /** Only directories and buckets hold archives. */
  public ArchiveSpec {
    if (location instanceof OutputLocation.PostGis) {
      throw new IllegalArgumentException("a PMTiles archive is a file, not a table");
    }
  }

  /** Where the layer's tiles are published before they are packed. */
  public OutputLocation staging() {
    if (location instanceof OutputLocation.Gcs g) {
      return new OutputLocation.Gcs(g.bucket(), g.objectName(STAGING_DIR));
    }
    if (location instanceof OutputLocation.S3 s) {
      return new OutputLocation.S3(s.bucket(), s.objectName(STAGING_DIR));
    }
    return new OutputLocation.Local(
        ((OutputLocation.Local) location).root().resolve(STAGING_DIR).toString());
  }

  /** The archive's file or object name below the output. */
  public String archiveName() {
    return layer + ".pmtiles";
  }

  /** The archive's URI, for messages and reports. */
  public String uri() {
    if (location instanceof OutputLocation.Gcs g) {
      return "gs://" + g.bucket() + "/" + g.objectName(archiveName());
    }
    if (location instanceof OutputLocation.S3 s) {
      return "s3://" + s.bucket() + "/" + s.objectName(archiveName());
    }
    return localArchive().toUri().toString();
  }

  /** The directory the archive is in, for a local output. */
  public Path localRoot() {
    return ((OutputLocation.Local) location).root();
  }

  /** The archive's path, for a local output. */
  public Path localArchive() {
    return localRoot().resolve(archiveName());
  }

  /** The tile type the header states: 1 MVT, 2 PNG, 0 other (PMTiles has no GeoTIFF type). */
  int tileType() {
    if (tiles instanceof MvtFormat) {
      return 1;
    }
    return tiles.extension().equals("png") ? 2 : 0;
  }

  /** The metadata's {@code format}: {@code pbf} for vector tiles, else the file extension. */
  String metadataFormat() {
    return tiles instanceof MvtFormat ? "pbf" : tiles.extension();
  }

  /**
   * Whether a completed tile goes in the archive: every raster tile, and vector tiles that hold a
   * feature (an archive leaves empty vector tiles out, as tile servers answer them with nothing).
   */
  boolean holds(long features) {
    return !tiles.emptyWithoutFeatures() || features > 0;
  }
}
