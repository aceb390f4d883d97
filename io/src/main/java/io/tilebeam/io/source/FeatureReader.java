package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the features of one layer's source, opened by {@link FeatureSource#open} and kept for the
 * life of a reading DoFn (an open file's index pages, a database connection, serve every group).
 * Not thread-safe.
 */
public interface FeatureReader extends AutoCloseable {

  /**
   * Calls {@code action} for every usable feature of {@code split} (one of {@link
   * FeatureSource#splits}), {@code bad} for each one that cannot be used, in source order.
   *
   * @throws IOException when the source cannot be read
   */
  void forEach(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException;

  /**
   * As {@link #forEach(SourceSplit, Consumer, Consumer)}, for a reader that can leave parts of the
   * split unread: a part whose box (in the source CRS) {@code wanted} refuses holds no feature any
   * claimed tile needs. By default the whole split is read.
   *
   * @throws IOException when the source cannot be read
   */
  default void forEach(
      SourceSplit split,
      java.util.function.Predicate<Bounds> wanted,
      Consumer<Feature> action,
      Consumer<BadFeature> bad)
      throws IOException {
    forEach(split, action, bad);
  }

  /**
   * Calls {@code action} once for every usable feature whose box meets one of {@code boxes} (in the
   * source CRS), {@code bad} for each one that cannot be used. Only an {@link
   * FeatureSource#indexed() indexed} source reads this way.
   *
   * @throws IOException when the file cannot be read
   * @throws SQLException when the query fails
   */
  default void forEachIn(List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException, SQLException {
    throw new UnsupportedOperationException("this source has no index: it is read in splits");
  }

  /** Unclosed polygon rings closed so far (counted as repairs). */
  long ringsClosed();

  /** Releases what the reader holds open. */
  @Override
  default void close() throws SQLException {}
}
