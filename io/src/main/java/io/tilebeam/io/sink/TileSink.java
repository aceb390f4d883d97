package io.tilebeam.io.sink;

import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;

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
  PublishResult publish(RenderedTile tile) throws TileDataException, IOException;

  /** Releases connections; the default holds none. */
  @Override
  default void close() throws IOException {}
}
