package io.tilebeam.io.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.LongConsumer;
import org.wololo.flatgeobuf.generated.Crs;
import org.wololo.flatgeobuf.generated.Header;

/**
 * The layout of a FlatGeobuf file: its header (geometry type, columns, CRS, feature count), its
 * packed Hilbert R-tree when it has one, and where each feature starts. A tile's features are found
 * by walking the tree from the root, reading only the nodes whose boxes meet the tile's, so a tile
 * costs a few page reads however large the file is.
 *
 * <p>Layout (FlatGeobuf 3): 8 magic bytes, a little-endian uint32 header size, the header, the
 * index ({@code featuresCount} leaves of 40 bytes and their parents, root first), then the
 * features, each a uint32 size and a flatbuffer. Leaf {@code i} holds the box and the byte offset
 * (from the start of the features) of feature {@code i} in file order.
 */
final class FlatGeobufFile {

  /** Bytes of one index node: four doubles and an unsigned 64-bit offset. */
  static final int NODE_BYTES = 40;

  // A header is a flatbuffer of column and CRS definitions: megabytes would be a corrupt size.
  private static final int MAX_HEADER_BYTES = 64 << 20;

  // Pages kept per open file: 32 MiB, the upper levels of the largest indexes and a tile's worth
  // of features.
  private static final int CACHED_PAGES = 512;

  /** A property column: its name and FlatGeobuf column type. */
  record Column(String name, int type) {}

  private final PagedReader reader;
  private final String describe;
  private final int geometryType;
  private final long featuresCount;
  private final int nodeSize;
  private final List<Column> columns;
  private final String crs;
  private final long indexOffset;
  private final long featuresOffset;
  private final long[][] levels;

  private FlatGeobufFile(SourceFile file, PagedReader reader, Header header, long indexOffset) {
    this.reader = reader;
    this.describe = file.describe();
    this.geometryType = header.geometryType();
    this.featuresCount = header.featuresCount();
    this.nodeSize = header.indexNodeSize();
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < header.columnsLength(); i++) {
      cols.add(new Column(header.columns(i).name(), header.columns(i).type()));
    }
    this.columns = List.copyOf(cols);
    this.crs = crsOf(header.crs());
    this.indexOffset = indexOffset;
    this.levels = indexed() ? levelBounds(featuresCount, nodeSize) : new long[0][];
    this.featuresOffset = indexOffset + (indexed() ? nodeCount() * NODE_BYTES : 0);
  }

  /**
   * Reads the header of {@code file}.
   *
   * @throws SourceFormatException when it is not a FlatGeobuf file, or its header is cut short
   * @throws IOException when it cannot be read
   */
  static FlatGeobufFile open(SourceFile file) throws IOException {
    PagedReader reader = new PagedReader(file, file.size(), CACHED_PAGES);
    String where = file.describe();
    if (reader.size() < 12) {
      throw new SourceFormatException(
          where + ": not a FlatGeobuf file (" + reader.size() + " bytes)", null);
    }
    byte[] start = reader.read(0, 12);
    if (start[0] != 'f'
        || start[1] != 'g'
        || start[2] != 'b'
        || start[4] != 'f'
        || start[5] != 'g'
        || start[6] != 'b') {
      throw new SourceFormatException(where + ": not a FlatGeobuf file (no magic bytes)", null);
    }
    if (start[3] != 3) {
      throw new SourceFormatException(
          where + ": FlatGeobuf version " + start[3] + " cannot be read (only version 3)", null);
    }
    long headerSize =
        ByteBuffer.wrap(start, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
    if (headerSize > MAX_HEADER_BYTES || 12 + headerSize > reader.size()) {
      throw new SourceFormatException(
          where
              + ": truncated or corrupt: a header of "
              + headerSize
              + " bytes in a file of "
              + reader.size(),
          null);
    }
    ByteBuffer bytes =
        ByteBuffer.wrap(reader.read(12, (int) headerSize)).order(ByteOrder.LITTLE_ENDIAN);
    FlatGeobufFile fgb;
    try {
      Header header = Header.getRootAsHeader(bytes);
      checkIndexShape(where, header, reader.size());
      fgb = new FlatGeobufFile(file, reader, header, 12 + headerSize);
    } catch (SourceFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      // A flatbuffer with offsets pointing out of itself.
      throw new SourceFormatException(where + ": corrupt FlatGeobuf header: " + e, e);
    }
    fgb.checkLength();
    return fgb;
  }

  /** Whether the file has a spatial index. */
  boolean indexed() {
    return nodeSize > 0 && featuresCount > 0;
  }

  /** The header's geometry type; 0 (Unknown) when each feature states its own. */
  int geometryType() {
    return geometryType;
  }

  /** The property columns of the header. */
  List<Column> columns() {
    return columns;
  }

  /** The number of features the header states; 0 for a file written as a stream. */
  long featuresCount() {
    return featuresCount;
  }

  /**
   * The CRS the header declares, as {@code AUTHORITY:CODE} or WKT, or null when it declares none.
   */
  String crs() {
    return crs;
  }

  /**
   * Calls {@code hit} with the offset of every feature whose box meets the given box, in the order
   * the tree is walked; the offsets are those of {@link #feature}.
   */
  void search(double minX, double minY, double maxX, double maxY, LongConsumer hit)
      throws IOException {
    long leaves = levels[0][0];
    Deque<long[]> queue = new ArrayDeque<>();
    queue.add(new long[] {0, levels.length - 1});
    while (!queue.isEmpty()) {
      long[] item = queue.poll();
      long first = item[0];
      int level = (int) item[1];
      long end = Math.min(first + nodeSize, levels[level][1]);
      ByteBuffer nodes = nodes(first, end);
      for (long node = first; node < end; node++) {
        int at = (int) (node - first) * NODE_BYTES;
        if (maxX < nodes.getDouble(at)
            || maxY < nodes.getDouble(at + 8)
            || minX > nodes.getDouble(at + 16)
            || minY > nodes.getDouble(at + 24)) {
          continue;
        }
        long offset = nodes.getLong(at + 32);
        if (node >= leaves) {
          if (offset < 0 || offset >= featuresEnd()) {
            throw corrupt("leaf " + node + " places a feature at " + offset);
          }
          hit.accept(offset);
        } else {
          // A child lies in the level below: an offset elsewhere (the root, its own level, past
          // the index) is a damaged index, not a place to read.
          if (level == 0 || offset < levels[level - 1][0] || offset >= levels[level - 1][1]) {
            throw corrupt(
                "node " + node + " points at node " + offset + ", outside the level below");
          }
          queue.add(new long[] {offset, level - 1});
        }
      }
    }
  }

  /**
   * The flatbuffer of the feature at {@code offset} (from the start of the features), and the
   * offset of the next one.
   *
   * @throws IOException when the file ends inside it
   */
  Record feature(long offset) throws IOException {
    long next = next(offset);
    byte[] body = reader.read(featuresOffset + offset + 4, (int) (next - offset - 4));
    return new Record(ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN), next);
  }

  /**
   * The offset of the feature after the one at {@code offset}, from its size prefix alone (its body
   * is not read), checked against the file's end.
   *
   * @throws IOException when the file ends inside it
   */
  long next(long offset) throws IOException {
    long at = featuresOffset + offset;
    if (offset < 0 || at > reader.size() - 4) {
      throw new SourceFormatException(
          describe
              + ": truncated: a feature at byte "
              + at
              + " where the file ends at "
              + reader.size(),
          null);
    }
    byte[] size = reader.read(at, 4);
    long length = ByteBuffer.wrap(size).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
    if (at + 4 + length > reader.size()) {
      throw new SourceFormatException(
          describe
              + ": truncated: the feature at byte "
              + at
              + " needs "
              + length
              + " bytes, the file ends at "
              + reader.size(),
          null);
    }
    return offset + 4 + length;
  }

  /** One feature's flatbuffer and the offset of the feature after it. */
  record Record(ByteBuffer body, long next) {}

  private SourceFormatException corrupt(String what) {
    return new SourceFormatException(describe + ": corrupt spatial index: " + what, null);
  }

  /** The offset just past the last feature: features are read from 0 while below it. */
  long featuresEnd() {
    return reader.size() - featuresOffset;
  }

  /** The byte of the file where the feature at {@code offset} starts, for messages. */
  long featuresByte(long offset) {
    return featuresOffset + offset;
  }

  /** The source, for messages. */
  String describe() {
    return describe;
  }

  /** Refuses index parameters no writer makes, before they are used to size anything. */
  private static void checkIndexShape(String where, Header header, long size) {
    long count = header.featuresCount();
    int nodeSize = header.indexNodeSize();
    if (count < 0 || (nodeSize > 0 && count > size / NODE_BYTES)) {
      throw new SourceFormatException(
          where
              + ": truncated or corrupt: "
              + Long.toUnsignedString(count)
              + " indexed features cannot fit in "
              + size
              + " bytes",
          null);
    }
    if (nodeSize == 1) {
      throw new SourceFormatException(where + ": corrupt: an index node size of 1", null);
    }
  }

  /**
   * Checks that the file holds all that its header promises: the whole index, and the last feature
   * the index points to. A file cut short by a failed copy is refused before anything is read.
   */
  private void checkLength() throws IOException {
    if (featuresOffset > reader.size()) {
      throw new SourceFormatException(
          describe
              + ": truncated: the header and index need "
              + featuresOffset
              + " bytes, the file has "
              + reader.size(),
          null);
    }
    if (!indexed()) {
      // Without an index the features start right after the header: the first must be whole (a
      // header that says "no index" before one is read as features otherwise).
      if (featuresEnd() > 0) {
        feature(0);
      }
      return;
    }
    // The root's children must lie in the level below it; the rest of the tree is checked as it
    // is walked.
    int top = levels.length - 1;
    if (top > 0) {
      long first = levels[top][0];
      long end = levels[top][1];
      ByteBuffer roots = nodes(first, end);
      for (long node = first; node < end; node++) {
        long child = roots.getLong((int) (node - first) * NODE_BYTES + 32);
        if (child < levels[top - 1][0] || child >= levels[top - 1][1]) {
          throw corrupt("the root points at node " + child + ", outside the level below");
        }
      }
    }
    // Features are written in leaf order, so the last leaf holds the last feature.
    long lastLeaf = nodeCount() - 1;
    long last = nodes(lastLeaf, lastLeaf + 1).getLong(32);
    if (last < 0 || last >= featuresEnd()) {
      throw new SourceFormatException(
          describe
              + ": truncated: the index places a feature at byte "
              + (featuresOffset + last)
              + ", the file ends at "
              + reader.size(),
          null);
    }
    feature(last);
  }

  private ByteBuffer nodes(long first, long end) throws IOException {
    byte[] bytes =
        reader.read(indexOffset + first * NODE_BYTES, (int) ((end - first) * NODE_BYTES));
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private long nodeCount() {
    return levels[0][1];
  }

  /**
   * The node range {@code [start, end)} of each level of the tree, leaves first: the levels are
   * stored root first, each parent level {@code nodeSize} times smaller than the one below.
   */
  private static long[][] levelBounds(long items, int nodeSize) {
    List<Long> counts = new ArrayList<>();
    long n = items;
    long total = n;
    counts.add(n);
    do {
      n = (n + nodeSize - 1) / nodeSize;
      total += n;
      counts.add(n);
    } while (n != 1);
    long[][] bounds = new long[counts.size()][];
    long end = total;
    for (int i = 0; i < counts.size(); i++) {
      bounds[i] = new long[] {end - counts.get(i), end};
      end -= counts.get(i);
    }
    return bounds;
  }

  private static String crsOf(Crs crs) {
    if (crs == null) {
      return null;
    }
    if (crs.code() != 0) {
      return (crs.org() == null ? "EPSG" : crs.org()) + ":" + crs.code();
    }
    if (crs.codeString() != null && !crs.codeString().isBlank()) {
      return (crs.org() == null ? "EPSG" : crs.org()) + ":" + crs.codeString();
    }
    return crs.wkt() != null && !crs.wkt().isBlank() ? crs.wkt() : null;
  }
}
