package io.tilebeam.pipeline.job;

import io.tilebeam.io.postgres.PgConnections;
import io.tilebeam.io.source.FlatGeobufSource;
import io.tilebeam.io.source.GeoJsonSource;
import io.tilebeam.io.source.JsonLimits;
import io.tilebeam.io.source.PostGisSource;
import io.tilebeam.io.source.SourceFieldException;
import io.tilebeam.io.source.SourceFile;
import io.tilebeam.io.source.SourceFormatException;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.pipeline.job.JobSpec.LayerSpec;
import io.tilebeam.pipeline.job.JobSpec.SourceOptions;
import java.io.IOException;
import java.util.List;

/**
 * A layer's source found and checked at planning, before anything is claimed: the file or object
 * exists and is whole, its columns can be read, its declared CRS is known, and its identity (which
 * enters every work key of the layer) is taken.
 *
 * @param file the file or pinned GCS object, or null for PostGIS
 * @param table the PostGIS source, or null for a file
 * @param indexed whether tiles read their own features through an index
 * @param declaredCrs the CRS the source declares, or null
 * @param identity the content identity for the work key
 */
record ResolvedSource(
    SourceFile file, PostGisSource table, boolean indexed, String declaredCrs, String identity) {

  /**
   * Resolves layer {@code l}, found at {@code path} in the job, reaching GCS with {@code gcs}.
   *
   * @throws JobSpecException naming the source field that cannot be used
   */
  static ResolvedSource resolve(LayerSpec l, String path, GcsSettings gcs) {
    if (l.sourceFormat().equals("postgis")) {
      return postgis(l, path);
    }
    SourceFile file;
    try {
      file = SourceFile.resolve(l.sourceUri(), gcs);
    } catch (IllegalArgumentException e) {
      throw new JobSpecException(path + ".source.uri", l.sourceUri(), e.getMessage(), e);
    }
    try {
      String declared = null;
      boolean indexed = false;
      String idColumn = l.sourceOptions().idColumn();
      if (l.sourceFormat().equals("geojson")) {
        declared = new GeoJsonSource(file).declaredCrs().orElse(null);
      } else if (l.sourceFormat().equals("flatgeobuf")) {
        FlatGeobufSource fgb = FlatGeobufSource.open(file, idColumn);
        checkColumns(fgb, idColumn, l, path);
        declared = fgb.declaredCrs();
        indexed = fgb.indexed();
      }
      // The id column decides the ids, and set reading limits which features are read: both are
      // part of what the layer's keys are made from (the defaults add nothing, so the keys of jobs
      // that set none are what they were).
      JsonLimits limits = l.sourceOptions().limits();
      String identity =
          file.identity()
              + (idColumn == null ? "" : "#idColumn=" + idColumn)
              + (limits == null
                  ? ""
                  : "#limits="
                      + limits.maxStringChars()
                      + ","
                      + limits.maxNesting()
                      + ","
                      + limits.maxRecordBytes());
      return new ResolvedSource(file, null, indexed, declared, identity);
    } catch (SourceFormatException e) {
      throw new JobSpecException(path + ".source.uri", l.sourceUri(), e.getMessage(), e);
    } catch (IOException e) {
      // The source was found; failing to read it now is no fault of the job (exit 1, not 2).
      throw new java.io.UncheckedIOException(
          path + ".source.uri " + l.sourceUri() + " cannot be read: " + e.getMessage(), e);
    }
  }

  private static void checkColumns(
      FlatGeobufSource fgb, String idColumn, LayerSpec l, String path) {
    List<String> unreadable = fgb.unreadableColumns();
    if (!unreadable.isEmpty()) {
      throw new JobSpecException(
          path + ".source.uri", l.sourceUri(), String.join("; ", unreadable));
    }
    if (idColumn != null && !fgb.columnNames().contains(idColumn)) {
      throw new JobSpecException(
          path + ".source.idColumn",
          idColumn,
          "no such column (columns: " + fgb.columnNames() + ")");
    }
  }

  private static ResolvedSource postgis(LayerSpec l, String path) {
    SourceOptions o = l.sourceOptions();
    if (!Locations.isPostgres(l.sourceUri())) {
      throw new JobSpecException(
          path + ".source.uri",
          l.sourceUri(),
          "a postgis source needs a postgresql:// or jdbc:postgresql: URL");
    }
    try {
      PostGisSource table =
          PostGisSource.resolve(
              new PostGisSource.Settings(
                  l.sourceUri(),
                  o.table(),
                  o.query(),
                  o.geometryColumn(),
                  o.idColumn(),
                  o.version(),
                  o.versionQuery()));
      return new ResolvedSource(null, table, true, table.declaredCrs(), table.identity());
    } catch (SourceFieldException e) {
      String value = e.field().equals("uri") ? PgConnections.mask(l.sourceUri()) : e.value();
      throw new JobSpecException(path + ".source." + e.field(), value, e.getMessage(), e);
    }
  }
}
