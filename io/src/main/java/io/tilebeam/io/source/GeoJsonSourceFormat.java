package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.Set;

/**
 * GeoJSON (RFC 7946): one FeatureCollection, which cannot be split without reading it: one worker
 * scans it for where its features start and the parts are read by all ({@link GeoJsonSource});
 * CRS84 unless its {@code crs} member or the job says otherwise.
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

    /**
     * Read in parts: the worker that takes the file finds where its features start (a scan that
     * builds none of them), and sends on parts of about {@link GeoJsonSeqSource#splitBytes} each;
     * every worker then reads and cuts the parts it gets. A part is a few bytes in the exchange
     * however large its features (a country's coastline is tens of megabytes), so the exchange
     * needs no sort memory sized to the largest feature, and the features are parsed where they are
     * cut.
     */
    @Override
    public SplitReader open(RetryPolicy retry) {
      return new FileSplitReader(
          (split, action, bad) -> {
            GeoJsonSource source = new GeoJsonSource(file, limits);
            if (split.range() == null) {
              source.forEach(action, bad);
            } else {
              source.forEach(split.range(), action, bad);
            }
            return source.ringsClosed();
          },
          (whole, part) ->
              new GeoJsonSource(file, limits)
                  .parts(
                      GeoJsonSeqSource.splitBytes(file.size()),
                      range -> part.accept(new SourceSplit(whole.layer(), range))));
    }
  }
}
