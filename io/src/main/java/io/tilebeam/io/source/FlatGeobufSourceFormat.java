package io.tilebeam.io.source;

import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * FlatGeobuf: with its packed R-tree, read per group of claimed tiles through the index (only the
 * pages it needs, by range on GCS); without one, read once, in parts spread over the workers. Its
 * header may declare the CRS; {@code idColumn} names the column holding ids.
 */
final class FlatGeobufSourceFormat extends FileSourceFormat {

  FlatGeobufSourceFormat() {
    super("flatgeobuf", Set.of("idColumn"), Set.of(), null);
  }

  @Override
  LayerSource resolve(SourceFile file, SourceOptions options) throws IOException {
    String idColumn = options.idColumn();
    FlatGeobufSource fgb = FlatGeobufSource.open(file, idColumn);
    List<String> unreadable = fgb.unreadableColumns();
    if (!unreadable.isEmpty()) {
      throw new SourceFormatException(String.join("; ", unreadable), null);
    }
    if (idColumn != null && !fgb.columnNames().contains(idColumn)) {
      throw new SourceFieldException(
          "idColumn", idColumn, "no such column (columns: " + fgb.columnNames() + ")", null);
    }
    String identity = identity(file, options);
    return fgb.indexed()
        ? new Indexed(file, idColumn, identity, fgb.declaredCrs())
        : new Unindexed(file, idColumn, identity, fgb.declaredCrs());
  }

  /**
   * A FlatGeobuf file without a spatial index, found at planning: read once, in parts. The worker
   * that takes the file walks its features' size prefixes and sends on parts of about {@link
   * GeoJsonSeqSource#splitBytes} each; every worker reads and cuts the parts it gets.
   */
  record Unindexed(SourceFile file, String idColumn, String identity, String declaredCrs)
      implements SplitSource {

    @Override
    public SplitReader open(RetryPolicy retry) {
      return new SplitReader() {
        private long ringsClosed;

        @Override
        public void forEach(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
            throws IOException {
          FlatGeobufSource source = FlatGeobufSource.open(file, idColumn);
          if (split.range() == null) {
            source.forEach(action, bad);
          } else {
            source.forEach(split.range(), action, bad);
          }
          ringsClosed += source.ringsClosed();
        }

        @Override
        public boolean parts(SourceSplit whole, Consumer<SourceSplit> part) throws IOException {
          FlatGeobufSource.open(file, idColumn)
              .parts(
                  GeoJsonSeqSource.splitBytes(file.size()),
                  range -> part.accept(new SourceSplit(whole.layer(), range)));
          return true;
        }

        @Override
        public long ringsClosed() {
          return ringsClosed;
        }
      };
    }
  }

  /** A FlatGeobuf file with its packed R-tree, found at planning: read per group of tiles. */
  record Indexed(SourceFile file, String idColumn, String identity, String declaredCrs)
      implements IndexedSource {

    @Override
    public IndexReader open(RetryPolicy retry) {
      return new IndexReader() {
        private FlatGeobufSource indexedFile;
        private long ringsClosed;

        @Override
        public void forEachIn(
            List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
            throws IOException {
          // Kept open: the index pages near the root serve every group.
          if (indexedFile == null) {
            indexedFile = FlatGeobufSource.open(file, idColumn);
          }
          long before = indexedFile.ringsClosed();
          indexedFile.forEachIn(boxes, action, bad);
          ringsClosed += indexedFile.ringsClosed() - before;
        }

        @Override
        public long ringsClosed() {
          return ringsClosed;
        }
      };
    }
  }
}
