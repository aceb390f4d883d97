package io.tilebeam.io.sink;

import io.tilebeam.transforms.key.TileWork;

/** The deterministic relative name of a published tile: {@code <layer>/<z>/<x>/<y>.<ext>}. */
final class TilePaths {

  private TilePaths() {}

  /** The tile's name below an output root, with {@code /} separators. */
  static String relative(TileWork work, String extension) {
    return work.layer() + "/" + work.tile().path() + "." + extension;
  }
}
