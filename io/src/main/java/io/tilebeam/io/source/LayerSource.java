package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * One layer's source as ReadFeatures reads it: a split of an unindexed file in one pass, or the
 * features in some boxes through an index (FlatGeobuf's R-tree, a PostGIS query). An open file or
 * connection is kept for the life of the reading DoFn: the index pages near the root serve every
 * group. Not thread-safe.
 */
final class LayerSource implements AutoCloseable {

  private final SourceSpec spec;
  private final RetryPolicy retry;
  private FlatGeobufSource flatGeobuf;
  private PostGisFeatures table;
  private long ringsClosed;

  LayerSource(SourceSpec spec, RetryPolicy retry) {
    this.spec = spec;
    this.retry = retry;
  }

  /**
   * Calls {@code action} for every usable feature of {@code split}, {@code bad} for each one that
   * cannot be decoded.
   *
   * @throws IOException when the source cannot be read
   */
  void forEach(SourceSplit split, Consumer<Feature> action, Consumer<GeoJsonSource.BadFeature> bad)
      throws IOException {
    switch (spec.format()) {
      case "geojson" -> {
        GeoJsonSource source = new GeoJsonSource(spec.file(), spec.limits());
        source.forEach(action, bad);
        ringsClosed += source.ringsClosed();
      }
      case "geojsonseq" -> {
        GeoJsonSeqSource source = new GeoJsonSeqSource(spec.file(), spec.limits());
        source.forEach(split.range(), action, bad);
        ringsClosed += source.ringsClosed();
      }
      default -> {
        FlatGeobufSource source = FlatGeobufSource.open(spec.file(), spec.idColumn());
        source.forEach(action, bad);
        ringsClosed += source.ringsClosed();
      }
    }
  }

  /**
   * Calls {@code action} once for every usable feature whose box meets one of {@code boxes} (in the
   * source CRS), {@code bad} for each one that cannot be decoded.
   *
   * @throws IOException when the file cannot be read
   * @throws SQLException when the query fails
   */
  void forEachIn(
      List<Bounds> boxes, Consumer<Feature> action, Consumer<GeoJsonSource.BadFeature> bad)
      throws IOException, SQLException {
    if (spec.table() != null) {
      if (table == null) {
        table = new PostGisFeatures(spec.table(), retry);
      }
      table.forEachIn(boxes, action, bad);
      return;
    }
    if (flatGeobuf == null) {
      flatGeobuf = FlatGeobufSource.open(spec.file(), spec.idColumn());
    }
    long before = flatGeobuf.ringsClosed();
    flatGeobuf.forEachIn(boxes, action, bad);
    ringsClosed += flatGeobuf.ringsClosed() - before;
  }

  /** Unclosed polygon rings closed so far (counted as repairs). */
  long ringsClosed() {
    return ringsClosed;
  }

  @Override
  public void close() throws SQLException {
    if (table != null) {
      table.close();
    }
  }
}
