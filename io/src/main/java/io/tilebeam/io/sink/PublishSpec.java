package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.crs.CrsRef;
import java.io.Serializable;

/**
 * Where and how one layer's tiles are published.
 *
 * @param location the parsed location
 * @param format the file format; {@code null} for a PostGIS table, which holds rows
 * @param targetCrs the CRS of the published geometries
 * @param gcs how to reach Google Cloud Storage; used by {@link OutputLocation.Gcs} outputs only
 */
public record PublishSpec(
    OutputLocation location, TileFormat format, CrsRef targetCrs, GcsSettings gcs)
    implements Serializable {}
