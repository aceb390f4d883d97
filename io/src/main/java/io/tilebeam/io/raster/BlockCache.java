package io.tilebeam.io.raster;

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
    long key = ((long) level.index() << 40) | index;
    float[] b = blocks.get(key);
    if (b == null) {
      b = file.readBlock(level.image(), index, rows);
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
