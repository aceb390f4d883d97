package io.tilebeam.io.source;

import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The reader of an unindexed file source: each split is read by opening the file afresh (splits of
 * one file go to different workers), and the rings each read closed are added up.
 */
final class FileSplitReader implements SplitReader {

  /** Reads one split; returns the unclosed rings it closed. */
  interface ReadSplit {
    /**
     * Reads {@code split}, passing usable features to {@code action} and bad ones to {@code bad}.
     */
    long read(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
        throws IOException;
  }

  /** Cuts a whole-file split into parts. */
  interface CutParts {
    /**
     * Passes the parts of {@code whole} to {@code part}, in file order; false, having passed
     * nothing, when the file cannot be cut.
     */
    boolean parts(SourceSplit whole, Consumer<SourceSplit> part) throws IOException;
  }

  private final ReadSplit read;
  private final CutParts parts;
  private long ringsClosed;

  FileSplitReader(ReadSplit read) {
    this(read, null);
  }

  /** A reader that can cut a whole file into parts, or not ({@code parts} null). */
  FileSplitReader(ReadSplit read, CutParts parts) {
    this.read = read;
    this.parts = parts;
  }

  @Override
  public boolean parts(SourceSplit whole, Consumer<SourceSplit> part) throws IOException {
    return parts != null && parts.parts(whole, part);
  }

  @Override
  public void forEach(SourceSplit split, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    ringsClosed += read.read(split, action, bad);
  }

  @Override
  public long ringsClosed() {
    return ringsClosed;
  }
}
