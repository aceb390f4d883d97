package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.S3Settings;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.crs.CrsRef;
import java.io.Serializable;

/**
 * Where and how one layer's tiles are published.
 *
 * @param location the parsed location
 * @param format the file format; {@code null} for a PostGIS table, which holds rows
 * @param targetCrs the CRS of the published geometries
 * @param stores how object stores are reached; used by {@link OutputLocation.Gcs} and {@link
 *     OutputLocation.S3} outputs only
 */
public record PublishSpec(
    OutputLocation location, TileFormat format, CrsRef targetCrs, Stores stores)
    implements Serializable {

  /** A spec whose object stores are GCS as {@code gcs} says, and S3 as the environment says. */
  public PublishSpec(
      OutputLocation location, TileFormat format, CrsRef targetCrs, GcsSettings gcs) {
    this(location, format, targetCrs, Stores.of(gcs));
  }

  /** How Google Cloud Storage is reached. */
  public GcsSettings gcs() {
    return stores.gcs();
  }

  /** How S3 is reached. */
  public S3Settings s3() {
    return stores.s3();
  }
}
