package io.tilebeam.io.sink;

import io.tilebeam.transforms.outcome.FeatureFailure;
import io.tilebeam.transforms.outcome.TileFailure;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;

/**
 * Records what could not be published, one JSON object a line, beside a layer's output: features
 * that could not be used in {@code <output>/_failed/<layer>/features.jsonl} and tiles that failed
 * for good in {@code <output>/_failed/<layer>/tiles.jsonl}. The records are keyed by layer as
 * {@code KV<layer, line>}; see {@link FeatureFailure#toJsonLine()} and {@link
 * TileFailure#toJsonLine()}.
 *
 * <p>A file is the sorted union of every record written to it, folded so that a feature failing the
 * same way in many tiles is one record listing them ({@link DeadLetterRecords}): a retried bundle,
 * a rerun or a second run adds nothing twice, and a run that rebuilds only some tiles keeps the
 * records of the others. Each update takes a lock file beside it (two runs at once do not lose each
 * other's records), then writes a temporary file and moves it atomically into place, as tiles are
 * published. A record stays after its tile or feature is fixed: a tile record names its work key,
 * which the ledger can be asked about.
 */
public final class DeadLetters
    extends PTransform<PCollection<KV<String, String>>, PCollection<Long>> {

  /** The directory, under a layer's output, that holds its failure records. */
  public static final String FAILED_DIR = "_failed";

  /** The file of a layer's feature failures. */
  public static final String FEATURES_FILE = "features.jsonl";

  /** The file of a layer's tile failures. */
  public static final String TILES_FILE = "tiles.jsonl";

  private final Map<String, PublishSpec> outputs;
  private final String fileName;

  private DeadLetters(Map<String, PublishSpec> outputs, String fileName) {
    this.outputs = Map.copyOf(outputs);
    this.fileName = fileName;
  }

  /**
   * Records feature failures into these layers' outputs: a file under a directory, an object under
   * a GCS prefix (same name, kept by a generation precondition), a {@code <table>_failed} table
   * beside a PostGIS table.
   */
  public static DeadLetters features(Map<String, PublishSpec> outputs) {
    return new DeadLetters(outputs, FEATURES_FILE);
  }

  /** Records tile failures into these layers' outputs, as {@link #features} does. */
  public static DeadLetters tiles(Map<String, PublishSpec> outputs) {
    return new DeadLetters(outputs, TILES_FILE);
  }

  /** The feature dead-letter file of a layer whose output is {@code outputRoot}. */
  public static Path file(Path outputRoot, String layer) {
    return file(outputRoot, layer, FEATURES_FILE);
  }

  /** A dead-letter file of a layer whose output is {@code outputRoot}. */
  public static Path file(Path outputRoot, String layer, String fileName) {
    return outputRoot.resolve(FAILED_DIR).resolve(layer).resolve(fileName);
  }

  @Override
  public PCollection<Long> expand(PCollection<KV<String, String>> input) {
    return input
        .apply("GroupByLayer", GroupByKey.create())
        .apply("MergeIntoFile", ParDo.of(new MergeFn(outputs, fileName)))
        .setCoder(VarLongCoder.of());
  }

  private static final class MergeFn extends DoFn<KV<String, Iterable<String>>, Long> {
    private final Map<String, PublishSpec> outputs;
    private final String fileName;

    MergeFn(Map<String, PublishSpec> outputs, String fileName) {
      this.outputs = outputs;
      this.fileName = fileName;
    }

    @RequiresStableInput
    @ProcessElement
    public void process(@Element KV<String, Iterable<String>> layer, OutputReceiver<Long> out)
        throws IOException {
      PublishSpec spec = outputs.get(layer.getKey());
      SortedSet<String> lines = new TreeSet<>();
      layer.getValue().forEach(lines::add);
      if (spec.location() instanceof OutputLocation.Local local) {
        out.output((long) merge(file(local.root(), layer.getKey(), fileName), lines));
      } else if (spec.location() instanceof OutputLocation.Gcs) {
        out.output((long) RemoteDeadLetters.mergeIntoObject(spec, layer.getKey(), fileName, lines));
      } else if (spec.location() instanceof OutputLocation.S3) {
        out.output((long) RemoteDeadLetters.mergeIntoS3(spec, layer.getKey(), fileName, lines));
      } else {
        out.output((long) RemoteDeadLetters.mergeIntoTable(spec, lines));
      }
    }
  }

  /**
   * Adds {@code lines} to the file (creating it), keeping it sorted and free of duplicates. Returns
   * how many lines the file holds.
   *
   * @throws IOException when the file cannot be read or replaced; it is then untouched
   */
  static int merge(Path file, SortedSet<String> lines) throws IOException {
    Path dir = file.getParent();
    Files.createDirectories(dir);
    Path lockPath = dir.resolve(".lock").toAbsolutePath().normalize();
    // A file lock is held by the JVM, not the thread: two merges of one JVM (the features' and the
    // tiles' records of a layer) would overlap on it. They take turns here first.
    java.util.concurrent.locks.ReentrantLock inJvm =
        IN_JVM.computeIfAbsent(lockPath, p -> new java.util.concurrent.locks.ReentrantLock());
    inJvm.lock();
    try {
      return mergeLocked(dir, lockPath, file, lines);
    } finally {
      inJvm.unlock();
    }
  }

  private static final java.util.concurrent.ConcurrentHashMap<
          Path, java.util.concurrent.locks.ReentrantLock>
      IN_JVM = new java.util.concurrent.ConcurrentHashMap<>();

  private static int mergeLocked(Path dir, Path lockPath, Path file, SortedSet<String> lines)
      throws IOException {
    try (FileChannel lockFile =
        FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      // The lock lasts until the channel closes: another process merging here waits for it.
      lockFile.lock();
      SortedSet<String> existing = new TreeSet<>();
      if (Files.isRegularFile(file)) {
        existing.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
        existing.remove("");
      }
      SortedSet<String> all = DeadLetterRecords.merge(existing, lines);
      if (all.equals(existing)) {
        return all.size(); // nothing new: leave the file as it is
      }
      StringBuilder text = new StringBuilder();
      all.forEach(l -> text.append(l).append('\n'));
      Path temp =
          dir.resolve(LocalTileSink.TEMP_PREFIX + file.getFileName() + "." + UUID.randomUUID());
      try {
        AtomicFiles.write(temp, text.toString().getBytes(StandardCharsets.UTF_8));
        AtomicFiles.move(temp, file);
        AtomicFiles.forceDirectory(dir);
      } finally {
        Files.deleteIfExists(temp);
      }
      return all.size();
    }
  }
}
