package io.tilebeam.io.source;

import io.tilebeam.io.sink.Checksums;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The identity of a source's content for work keys: {@code sha256:<hex>} of a file's bytes,
 * streamed. The same bytes give the same identity wherever the file lives; one changed byte gives
 * another, and so re-keys every tile of the layer.
 */
public final class SourceIdentity {

  private SourceIdentity() {}

  /**
   * The identity of a local file.
   *
   * @throws IOException when the file cannot be read
   */
  public static String ofFile(Path path) throws IOException {
    return Checksums.of(path);
  }
}
