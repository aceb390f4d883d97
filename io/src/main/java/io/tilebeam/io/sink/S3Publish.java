package io.tilebeam.io.sink;

import io.tilebeam.io.storage.S3Objects;
import java.io.IOException;
import java.util.function.Function;

/**
 * The write of every S3 publish, a tile's, an archive's: the whole object in one conditional
 * request, made over the version read before (absent, or its ETag). When another writer got there
 * first ({@link S3Objects.Conflict}) the object is read again and {@code afterConflict} decides: a
 * result ends the publish (our own write whose answer was lost, another writer's same content),
 * null writes again over what is there now.
 */
final class S3Publish {

  /** Conflicting writers outlasted before the publish gives up. */
  static final int MAX_CONFLICTS = 5;

  /** One conditional write over the version {@code expectedEtag} (null: absent). */
  interface Write {
    void over(String expectedEtag) throws S3Objects.Conflict, IOException;
  }

  private S3Publish() {}

  /**
   * Writes over {@code current} (null: absent); returns {@code written}, or what {@code
   * afterConflict} decided.
   *
   * @throws IOException when conflicts keep coming, or the write fails
   */
  static <T> T write(
      S3Objects s3,
      String key,
      S3Objects.Head current,
      T written,
      Write write,
      Function<S3Objects.Head, T> afterConflict)
      throws IOException {
    S3Objects.Head at = current;
    for (int conflicts = 0; ; conflicts++) {
      try {
        write.over(at == null ? null : at.etag());
        return written;
      } catch (S3Objects.Conflict e) {
        at = s3.head(key);
        T decided = afterConflict.apply(at);
        if (decided != null) {
          return decided;
        }
        if (conflicts >= MAX_CONFLICTS) {
          throw new IOException(s3.uri(key) + ": other writers kept replacing it", e);
        }
      }
    }
  }
}
