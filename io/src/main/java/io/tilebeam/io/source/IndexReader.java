package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the features of one layer's {@link IndexedSource} by boxes, opened by {@link
 * IndexedSource#open} and kept for the life of a reading DoFn (an open file's index pages, a
 * database connection, serve every group). Not thread-safe.
 */
public interface IndexReader extends AutoCloseable {

  /**
   * Calls {@code action} once for every usable feature whose box meets one of {@code boxes} (in the
   * source CRS), {@code bad} for each one that cannot be used.
   *
   * @throws IOException when the file cannot be read
   * @throws SQLException when the query fails
   */
  void forEachIn(List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException, SQLException;

  /** Unclosed polygon rings closed so far (counted as repairs). */
  long ringsClosed();

  /** Releases what the reader holds open. */
  @Override
  default void close() throws SQLException {}
}
