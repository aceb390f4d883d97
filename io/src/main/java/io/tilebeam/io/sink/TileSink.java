package io.tilebeam.io.sink;

import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where one layer's tiles are published. Publishing a tile is idempotent: publishing the same
 * content again leaves the same published result, and a publish stopped at any point leaves either
 * the old result or the new one, never a part.
 */
public interface TileSink extends AutoCloseable {

  /**
   * Publishes one tile.
   *
   * @throws TileDataException when this tile cannot be published (it cannot be encoded, or the
   *     store refuses it for good); other tiles are not affected
   * @throws IOException on a storage error that may pass (the bundle is retried)
   */
  PublishResult publish(TileContent tile) throws TileDataException, IOException;

  /**
   * Publishes several tiles, with the same guarantees per tile as {@link #publish}; a sink may
   * group their durability steps (one pass of disk flushes for the batch instead of one per tile).
   * The attempts come back in the order of {@code tiles}; a tile that cannot be published is an
   * attempt with its failure, and the others are not affected. The default publishes one by one.
   *
   * @throws IOException on a storage error that may pass (the bundle is retried)
   */
  default List<Attempt> publishAll(List<? extends TileContent> tiles) throws IOException {
    List<Attempt> out = new ArrayList<>(tiles.size());
    for (TileContent tile : tiles) {
      try {
        out.add(new Attempt(publish(tile), null));
      } catch (TileDataException e) {
        out.add(new Attempt(null, e));
      }
    }
    return out;
  }

  /**
   * One tile's publish: its result, or the reason it cannot be published.
   *
   * @param result what was published, or null when the tile failed
   * @param failure why the tile cannot be published, or null
   */
  record Attempt(PublishResult result, TileDataException failure) {}

  /** Releases connections; the default holds none. */
  @Override
  default void close() throws IOException {}
}
