package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.Set;

/**
 * GeoJSON (RFC 7946): one FeatureCollection, read whole in one pass by {@link GeoJsonSource} (a
 * collection cannot be split without reading it); CRS84 unless its {@code crs} member or the job
 * says otherwise.
 */
final class GeoJsonSourceFormat extends FileSourceFormat {

  GeoJsonSourceFormat() {
    super("geojson", Set.of("limits"), Set.of("maxStringChars", "maxNesting"), "OGC:CRS84");
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    JsonLimits limits = options.limitsOrDefault();
    String declared = new GeoJsonSource(file, limits).declaredCrs().orElse(null);
    return new Resolved(file, limits, identity(file, options), declared);
  }

  /** A GeoJSON file found at planning. */
  record Resolved(SourceFile file, JsonLimits limits, String identity, String declaredCrs)
      implements SplitSource {

    @Override
    public SplitReader open(RetryPolicy retry) {
      return new FileSplitReader(
          (split, action, bad) -> {
            GeoJsonSource source = new GeoJsonSource(file, limits);
            source.forEach(action, bad);
            return source.ringsClosed();
          });
    }
  }
}
