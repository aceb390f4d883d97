package io.tilebeam.transforms.raster;

import io.tilebeam.codec.tiff.TiffFile;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded TIFF blocks of one source, the most recently used kept up to a bound in bytes, so that
 * neighbouring windows (tiles next to each other, or the rows of a strip) inflate a block once.
 */
final class BlockCache {

  private final TiffFile file;
  private final long most;
  private long held;
  private final LinkedHashMap<Long, float[]> blocks = new LinkedHashMap<>(64, 0.75f, true);

  /** A cache over {@code file} holding at most {@code bytes} of samples. */
  BlockCache(TiffFile file, long bytes) {
    this.file = file;
    this.most = bytes;
  }

  /** Block {@code index} of {@code level}, decoded; {@code rows} of it hold image data. */
  float[] block(SourceLevel level, int index, int rows) throws IOException {
    return block(level, false, index, rows);
  }

  /**
   * Block {@code index} of {@code level}'s image, or of its mask ({@code mask}: 1 where the image
   * has data, 0 where not), decoded; {@code rows} of it hold image data.
   */
  float[] block(SourceLevel level, boolean mask, int index, int rows) throws IOException {
    long key = ((long) (2 * level.index() + (mask ? 1 : 0)) << 40) | index;
    float[] b = blocks.get(key);
    if (b == null) {
      b = file.readBlock(mask ? level.mask() : level.image(), index, rows);
      blocks.put(key, b);
      held += 4L * b.length;
      var eldest = blocks.entrySet().iterator();
      while (held > most && blocks.size() > 1) {
        Map.Entry<Long, float[]> e = eldest.next();
        held -= 4L * e.getValue().length;
        eldest.remove();
      }
    }
    return b;
  }
}
