package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.Locations;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A PostGIS table or query ({@link PostGisSource}): always read per group of claimed tiles, one
 * query by box each ({@link PostGisFeatures}); its CRS is its geometries' SRID. A database has no
 * content to hash, so the job states the data's version.
 */
final class PostGisSourceFormat extends SourceFormat {

  PostGisSourceFormat() {
    super(
        "postgis",
        Set.of("table", "query", "geometryColumn", "version", "versionQuery", "idColumn"),
        Set.of(),
        null);
  }

  @Override
  public void checkFields(SourceOptions o) {
    PostGisSource.checkSettings(o.table(), o.query(), o.version(), o.versionQuery());
  }

  @Override
  public String declaredCrsField() {
    return "source (the SRID of its geometries)";
  }

  @Override
  public LayerSource resolve(String uri, SourceOptions o, Stores stores) {
    if (!Locations.isPostgres(uri)) {
      throw new SourceFieldException(
          "uri", uri, "a postgis source needs a postgresql:// or jdbc:postgresql: URL", null);
    }
    return new Resolved(
        PostGisSource.resolve(
            new PostGisSource.Settings(
                uri,
                o.table(),
                o.query(),
                o.geometryColumn(),
                o.idColumn(),
                o.version(),
                o.versionQuery())));
  }

  /** A table or query resolved against its database at planning. */
  record Resolved(PostGisSource table) implements IndexedSource {

    @Override
    public String identity() {
      return table.identity();
    }

    @Override
    public String declaredCrs() {
      return table.declaredCrs();
    }

    @Override
    public IndexReader open(RetryPolicy retry) {
      return new IndexReader() {
        private PostGisFeatures features;

        @Override
        public void forEachIn(
            List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
            throws SQLException {
          if (features == null) {
            features = new PostGisFeatures(table, retry);
          }
          features.forEachIn(boxes, action, bad);
        }

        @Override
        public long ringsClosed() {
          return 0;
        }

        @Override
        public void close() throws SQLException {
          if (features != null) {
            features.close();
          }
        }
      };
    }
  }
}
