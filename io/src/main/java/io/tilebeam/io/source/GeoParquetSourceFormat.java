package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * GeoParquet 1.0 and 1.1: WKB geometries in a Parquet file (local, {@code gs://} or {@code s3://},
 * read by ranges), one split per row group spread over the workers; a row group whose bbox covering
 * statistics meet no claimed tile is skipped unread. The CRS is its {@code geo} metadata's
 * (PROJJSON with an authority code; CRS84 when absent); {@code idColumn} names the id column.
 */
final class GeoParquetSourceFormat extends FileSourceFormat {

  GeoParquetSourceFormat() {
    super("geoparquet", Set.of("idColumn"), Set.of(), null);
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    String idColumn = options.idColumn();
    GeoParquetSource source = GeoParquetSource.open(file, idColumn);
    if (!source.unreadableColumns().isEmpty()) {
      throw new SourceFormatException(String.join("; ", source.unreadableColumns()), null);
    }
    if (idColumn != null && !source.columnNames().contains(idColumn)) {
      throw new SourceFieldException(
          "idColumn", idColumn, "no such column (columns: " + source.columnNames() + ")", null);
    }
    if (idColumn != null && source.skippedColumns().containsKey(idColumn)) {
      throw new SourceFieldException(
          "idColumn",
          idColumn,
          "is " + source.skippedColumns().get(idColumn) + ", which cannot be an id",
          null);
    }
    return new Resolved(
        file,
        idColumn,
        identity(file, options),
        source.declaredCrs(),
        source.rowGroups(),
        new java.util.LinkedHashMap<>(source.skippedColumns()));
  }

  /**
   * A GeoParquet file found at planning.
   *
   * @param skippedColumns the columns that do not become properties, with why
   */
  record Resolved(
      SourceFile file,
      String idColumn,
      String identity,
      String declaredCrs,
      int rowGroups,
      java.util.LinkedHashMap<String, String> skippedColumns)
      implements SplitSource {

    /** One split per row group: workers read row groups, each by its own ranged reads. */
    @Override
    public List<SourceSplit> splits(String layer) {
      List<SourceSplit> out = new ArrayList<>(rowGroups);
      for (int g = 0; g < rowGroups; g++) {
        out.add(new SourceSplit(layer, new GeoJsonSeqSource.Range(g, g + 1)));
      }
      return out;
    }

    @Override
    public SplitReader open(RetryPolicy retry) {
      return new SplitReader() {
        private GeoParquetSource source;

        @Override
        public void forEach(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
            throws IOException {
          forEach(split, null, action, bad);
        }

        @Override
        public void forEach(
            SourceSplit split,
            Predicate<Bounds> wanted,
            Consumer<Feature> action,
            Consumer<BadFeature> bad)
            throws IOException {
          if (source == null) {
            source = GeoParquetSource.open(file, idColumn);
          }
          int from = split.range() == null ? 0 : (int) split.range().start();
          int to = split.range() == null ? rowGroups : (int) split.range().end();
          source.forEach(from, to, wanted, action, bad);
        }

        @Override
        public long ringsClosed() {
          return 0;
        }
      };
    }
  }
}
