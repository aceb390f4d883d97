package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.sql.SQLException;
import java.util.function.Consumer;

/**
 * Reads the features of one layer's {@link SplitSource} split by split, opened by {@link
 * SplitSource#open} and kept for the life of a reading DoFn. Not thread-safe.
 */
public interface SplitReader extends AutoCloseable {

  /**
   * Calls {@code action} for every usable feature of {@code split} (one of {@link
   * SplitSource#splits}), {@code bad} for each one that cannot be used, in source order.
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
   * Cuts {@code whole} (a split that is the whole source, {@link SourceSplit#range()} null) into
   * parts at feature boundaries, each a split that {@link #forEach} reads on its own, on any
   * worker: so that the features of a file that must be read from its start are spread over the
   * workers as a few small references, not as the features themselves.
   *
   * @return false, having passed nothing, when this source cannot be cut (by default; a GeoJSON
   *     file that is not UTF-8): the caller reads {@code whole} itself
   * @throws IOException when the source cannot be read
   */
  default boolean parts(SourceSplit whole, Consumer<SourceSplit> part) throws IOException {
    return false;
  }

  /** Unclosed polygon rings closed so far (counted as repairs). */
  long ringsClosed();

  /** Releases what the reader holds open. */
  @Override
  default void close() throws SQLException {}
}
