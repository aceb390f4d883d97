package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * GeoJSON text sequences (RFC 8142) and newline-delimited GeoJSON: split into byte ranges that
 * workers read side by side ({@link GeoJsonSeqSource}); CRS84 by the RFC, records declare none.
 */
final class GeoJsonSeqSourceFormat extends FileSourceFormat {

  GeoJsonSeqSourceFormat() {
    super(
        "geojsonseq",
        Set.of("limits"),
        Set.of("maxStringChars", "maxNesting", "maxRecordBytes"),
        "OGC:CRS84");
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    return new Resolved(file, options.limitsOrDefault(), identity(file, options));
  }

  /** A GeoJSONSeq file found at planning. */
  record Resolved(SourceFile file, JsonLimits limits, String identity) implements SplitSource {

    @Override
    public String declaredCrs() {
      return null;
    }

    /** Byte ranges of about {@link GeoJsonSeqSource#splitBytes}, each record read by one range. */
    @Override
    public List<SourceSplit> splits(String layer) throws IOException {
      long size = file.size();
      if (size == 0) {
        return List.of();
      }
      return GeoJsonSeqSource.split(size, GeoJsonSeqSource.splitBytes(size)).stream()
          .map(r -> new SourceSplit(layer, r))
          .toList();
    }

    @Override
    public SplitReader open(RetryPolicy retry) {
      return new FileSplitReader(
          (split, action, bad) -> {
            GeoJsonSeqSource source = new GeoJsonSeqSource(file, limits);
            source.forEach(split.range(), action, bad);
            return source.ringsClosed();
          });
    }
  }
}
