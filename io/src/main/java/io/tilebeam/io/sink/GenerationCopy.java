package io.tilebeam.io.sink;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.StorageException;
import io.tilebeam.io.retry.Retrier;
import java.util.function.Function;

/**
 * The last step of every GCS publish, a tile's or an archive's: the checked temporary object copied
 * onto the final one only if that is still the generation read before ({@code ifGenerationMatch}, 0
 * for absent). On a failed precondition (412) the final object is read again and {@code
 * afterConflict} decides: a result ends the publish (our own copy whose answer was lost, another
 * writer's same bytes), null copies again over what is there now.
 */
final class GenerationCopy {

  /** Conflicting writers outlasted before the publish gives up. */
  static final int MAX_CONFLICTS = 5;

  private GenerationCopy() {}

  /**
   * Copies {@code temp} onto {@code target} over {@code current} (null: absent); returns {@code
   * written}, or what {@code afterConflict} decided.
   *
   * @throws StorageException when the copy fails for another reason, or conflicts keep coming
   */
  static <T> T copy(
      Storage storage,
      Retrier retrier,
      BlobInfo temp,
      BlobInfo target,
      Blob current,
      T written,
      Function<Blob, T> afterConflict) {
    Blob at = current;
    for (int conflicts = 0; ; conflicts++) {
      long expected = at == null ? 0L : at.getGeneration();
      try {
        retrier.call(
            "copy onto " + target.getName(),
            () ->
                storage
                    .copy(
                        Storage.CopyRequest.newBuilder()
                            .setSource(temp.getBlobId())
                            .setTarget(target, BlobTargetOption.generationMatch(expected))
                            .build())
                    .getResult());
        return written;
      } catch (StorageException e) {
        if (e.getCode() != 412 || conflicts >= MAX_CONFLICTS) {
          throw e;
        }
      }
      at = retrier.call("read " + target.getName(), () -> storage.get(target.getBlobId()));
      T decided = afterConflict.apply(at);
      if (decided != null) {
        return decided;
      }
    }
  }
}
