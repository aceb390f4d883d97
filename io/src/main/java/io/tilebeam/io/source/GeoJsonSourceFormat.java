package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.Set;
import java.util.function.Consumer;

/**
 * GeoJSON (RFC 7946): one FeatureCollection, read whole in one pass by {@link GeoJsonSource} (a
 * collection cannot be split without reading it); CRS84 unless its {@code crs} member or the job
 * says otherwise.
 */
final class GeoJsonSourceFormat extends FileSourceFormat {

  @Override
  public String name() {
    return "geojson";
  }

  @Override
  public Set<String> fields() {
    return Set.of("limits");
  }

  @Override
  public Set<String> limitFields() {
    return Set.of("maxStringChars", "maxNesting");
  }

  @Override
  public String impliedCrs() {
    return "OGC:CRS84";
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    JsonLimits limits = options.limitsOrDefault();
    String declared = new GeoJsonSource(file, limits).declaredCrs().orElse(null);
    return new Resolved(file, limits, identity(file, options), declared);
  }

  /** A GeoJSON file found at planning. */
  record Resolved(SourceFile file, JsonLimits limits, String identity, String declaredCrs)
      implements LayerSource {

    @Override
    public boolean indexed() {
      return false;
    }

    @Override
    public FeatureReader open(RetryPolicy retry) {
      return new FeatureReader() {
        private long ringsClosed;

        @Override
        public void forEach(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
            throws IOException {
          GeoJsonSource source = new GeoJsonSource(file, limits);
          source.forEach(action, bad);
          ringsClosed += source.ringsClosed();
        }

        @Override
        public long ringsClosed() {
          return ringsClosed;
        }
      };
    }
  }
}
