package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import java.util.Optional;

/**
 * A part of a source split that cannot be decoded (a GeoParquet row group whose pages are damaged):
 * its features are unknown, so the claimed tiles they could reach fail with the reason, and the
 * rest of the layer goes on. The part's box, when the source states one, limits the tiles failed;
 * without it every claimed tile of the layer fails, since any might have lost a feature.
 */
public final class UnreadablePartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Bounds box;

  /** A part that cannot be read, and its box in the source CRS (null when unknown). */
  public UnreadablePartException(String message, Bounds box, Throwable cause) {
    super(message, cause);
    this.box = box;
  }

  /** The part's box in the source CRS, when the source states it. */
  public Optional<Bounds> box() {
    return Optional.ofNullable(box);
  }
}
