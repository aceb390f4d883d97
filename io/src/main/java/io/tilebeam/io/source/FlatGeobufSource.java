package io.tilebeam.io.source;

import io.tilebeam.transforms.crs.Bounds;
import io.tilebeam.transforms.feature.Feature;
import java.io.IOException;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Reads a FlatGeobuf file: the features in boxes through its spatial index (one tile's worth), or
 * every feature in file order when it has no index. A feature that cannot be decoded costs itself
 * only and is reported with its byte offset; a file cut short fails the read.
 */
public final class FlatGeobufSource {

  /** The id column when the job names none: where GDAL puts a GeoJSON feature's string id. */
  public static final String DEFAULT_ID_COLUMN = "id";

  private final FlatGeobufFile file;
  private final FlatGeobufFeatures features;

  private FlatGeobufSource(FlatGeobufFile file, String idColumn) {
    this.file = file;
    this.features = new FlatGeobufFeatures(file, idColumn == null ? DEFAULT_ID_COLUMN : idColumn);
  }

  /**
   * Opens {@code file}, reading its header and checking that it is whole.
   *
   * @param idColumn the column holding feature ids, or null for {@link #DEFAULT_ID_COLUMN}
   * @throws SourceFormatException when it is not a whole FlatGeobuf file
   */
  public static FlatGeobufSource open(SourceFile file, String idColumn) throws IOException {
    return new FlatGeobufSource(FlatGeobufFile.open(file), idColumn);
  }

  /** The CRS the header declares ({@code AUTHORITY:CODE} or WKT), or null. */
  public String declaredCrs() {
    return file.crs();
  }

  /** Whether features can be found by box; when not, the file is read whole in one pass. */
  public boolean indexed() {
    return file.indexed();
  }

  /** Messages naming every column whose type cannot become a property; empty when all can. */
  public List<String> unreadableColumns() {
    return FlatGeobufFeatures.unreadableColumns(file);
  }

  /** The names of the property columns. */
  public List<String> columnNames() {
    return file.columns().stream().map(FlatGeobufFile.Column::name).toList();
  }

  /**
   * Calls {@code action} once for every usable feature whose indexed box meets one of {@code
   * boxes}, in file order, and {@code bad} for each such feature that cannot be decoded.
   *
   * @throws IOException when the file cannot be read
   */
  public void forEachIn(List<Bounds> boxes, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    // Read in file order, and once even when in two boxes (both sides of the antimeridian).
    TreeSet<Long> offsets = new TreeSet<>();
    for (Bounds b : boxes) {
      file.search(b.minX(), b.minY(), b.maxX(), b.maxY(), offsets::add);
    }
    for (long offset : offsets) {
      decode(file.feature(offset), offset, action, bad);
    }
  }

  /**
   * Calls {@code action} for every usable feature in file order, and {@code bad} for each one that
   * cannot be decoded.
   *
   * @throws IOException when the file cannot be read, or ends inside a feature
   */
  public void forEach(Consumer<Feature> action, Consumer<BadFeature> bad) throws IOException {
    long end = file.featuresEnd();
    long count = 0;
    for (long offset = 0; offset < end; count++) {
      FlatGeobufFile.Record record = file.feature(offset);
      decode(record, offset, action, bad);
      offset = record.next();
    }
    checkCount(count);
  }

  /**
   * Cuts the features of a file without an index into parts of about {@code partBytes} bytes, at
   * features' starts (offsets from the first feature), for {@link #forEach(GeoJsonSeqSource.Range,
   * Consumer, Consumer)} to read each on its own (on another worker). Only the features' size
   * prefixes are read; a feature larger than {@code partBytes} is a part of its own.
   *
   * @throws IOException as {@link #forEach(Consumer, Consumer)}: a file that ends inside a feature,
   *     or holds another number of features than its header states
   */
  public void parts(long partBytes, Consumer<GeoJsonSeqSource.Range> part) throws IOException {
    long end = file.featuresEnd();
    long count = 0;
    long start = 0;
    long offset = 0;
    while (offset < end) {
      offset = file.next(offset);
      count++;
      if (offset - start >= partBytes) {
        part.accept(new GeoJsonSeqSource.Range(start, offset));
        start = offset;
      }
    }
    checkCount(count);
    if (offset > start) {
      part.accept(new GeoJsonSeqSource.Range(start, offset));
    }
  }

  /** Reads the features of one part made by {@link #parts}, as {@link #forEach} reads them all. */
  public void forEach(
      GeoJsonSeqSource.Range part, Consumer<Feature> action, Consumer<BadFeature> bad)
      throws IOException {
    for (long offset = part.start(); offset < part.end(); ) {
      FlatGeobufFile.Record record = file.feature(offset);
      decode(record, offset, action, bad);
      offset = record.next();
    }
  }

  private void checkCount(long count) {
    if (file.featuresCount() > 0 && count != file.featuresCount()) {
      throw new SourceFormatException(
          file.describe()
              + ": truncated or corrupt: "
              + count
              + " features where the header states "
              + file.featuresCount(),
          null);
    }
  }

  /** Unclosed polygon rings closed so far. */
  public long ringsClosed() {
    return features.ringsClosed();
  }

  private void decode(
      FlatGeobufFile.Record record,
      long offset,
      Consumer<Feature> action,
      Consumer<BadFeature> bad) {
    Feature feature;
    try {
      feature = features.decode(record.body());
    } catch (IllegalArgumentException e) {
      bad.accept(new BadFeature("feature at byte " + file.featuresByte(offset), e.getMessage()));
      return;
    }
    action.accept(feature);
  }
}
