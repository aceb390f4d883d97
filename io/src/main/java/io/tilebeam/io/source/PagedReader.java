package io.tilebeam.io.source;

import java.io.EOFException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Random reads of a source through a small cache of fixed-size pages. An indexed source is read in
 * many small pieces (index nodes, then one tile's features); the pages near the root of an index
 * and those of neighbouring features are asked for again and again, and over GCS each miss is a
 * request. The least recently used page is dropped when the cache is full.
 */
final class PagedReader {

  /** Bytes per page: a few features or a thousand index nodes per request. */
  static final int PAGE_BYTES = 64 << 10;

  private final SourceFile file;
  private final long size;
  private final Map<Long, byte[]> pages;

  /**
   * A reader of {@code file}, whose size is {@code size}, keeping at most {@code maxPages} pages.
   */
  PagedReader(SourceFile file, long size, int maxPages) {
    this.file = file;
    this.size = size;
    this.pages =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
            return size() > maxPages;
          }
        };
  }

  /** The source's size in bytes. */
  long size() {
    return size;
  }

  /**
   * Exactly {@code length} bytes from {@code offset}.
   *
   * @throws EOFException when they run past the end of the source
   */
  byte[] read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new EOFException(
          file.describe()
              + " has "
              + size
              + " bytes: cannot read "
              + length
              + " bytes at "
              + offset
              + " (truncated or corrupt)");
    }
    byte[] out = new byte[length];
    int done = 0;
    while (done < length) {
      long at = offset + done;
      long index = at / PAGE_BYTES;
      byte[] page = page(index);
      int from = (int) (at - index * PAGE_BYTES);
      int n = Math.min(length - done, page.length - from);
      System.arraycopy(page, from, out, done, n);
      done += n;
    }
    return out;
  }

  private byte[] page(long index) throws IOException {
    byte[] page = pages.get(index);
    if (page == null) {
      long start = index * PAGE_BYTES;
      page = file.read(start, (int) Math.min(PAGE_BYTES, size - start));
      pages.put(index, page);
    }
    return page;
  }
}
