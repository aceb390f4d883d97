package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.sink.PublishResult.Outcome;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Publishes tiles to a local or NFS directory as {@code <root>/<layer>/<z>/<x>/<y>.<ext>}.
 *
 * <p>Each attempt writes a hidden temporary file with a unique attempt id in the final directory,
 * forces it to disk, reads it back to validate it (checksum and feature count), and then moves it
 * atomically onto the final name and forces the directory. A reader therefore sees the old file or
 * the new one, never a part; a temporary file never appears under a final name. When the final file
 * already holds the same bytes, it is left alone.
 */
public final class LocalTileSink implements TileSink {

  /** Prefix of temporary files; {@code reap} removes orphans with it. */
  public static final String TEMP_PREFIX = ".tilebeam-";

  /** The boundaries between a publish's steps, where a process can die. */
  enum Step {
    /** The temporary file is written and forced to disk. */
    TEMP_WRITTEN,
    /** The temporary file read back with the right checksum and feature count. */
    VALIDATED,
    /** The temporary file was moved onto the final name; the directory is not forced yet. */
    MOVED,
    /** The directory was forced: the publish is durable. */
    DIRECTORY_FORCED
  }

  private final Path root;
  private final TileFormat format;
  private final CrsRef crs;
  private final StepListener steps;

  /** A sink for {@code spec}'s directory, format and CRS. */
  public LocalTileSink(PublishSpec spec) {
    this(
        ((OutputLocation.Local) spec.location()).root(),
        spec.format(),
        spec.targetCrs(),
        StepListener.NONE);
  }

  /**
   * A sink writing encoded tiles below {@code root} in {@code format}, through {@link
   * #publish(WorkKey, TileWork, byte[], long)} only.
   */
  public LocalTileSink(Path root, TileFormat format) {
    this(root, format, null, StepListener.NONE);
  }

  LocalTileSink(Path root, TileFormat format, CrsRef crs, StepListener steps) {
    this.root = root;
    this.format = format;
    this.crs = crs;
    this.steps = steps;
  }

  @Override
  public PublishResult publish(RenderedTile tile) throws TileDataException, IOException {
    if (crs == null) {
      throw new IllegalStateException("this sink publishes encoded bytes only");
    }
    TileFormat.Encoded encoded = EncodedTiles.encode(format, crs, tile);
    return publish(tile.key(), tile.work(), encoded.bytes(), encoded.features());
  }

  /** The final path of a tile. */
  public Path finalPath(TileWork work) {
    return root.resolve(TilePaths.relative(work, format.extension()));
  }

  /**
   * Publishes the tile's bytes.
   *
   * @throws IOException when writing, validating or moving fails; the final file is then untouched
   */
  public PublishResult publish(WorkKey key, TileWork work, byte[] bytes, long featureCount)
      throws IOException {
    Path target = finalPath(work);
    Path dir = target.getParent();
    Files.createDirectories(dir);
    String checksum = Checksums.of(bytes);
    if (Files.isRegularFile(target) && checksum.equals(Checksums.of(target))) {
      return new PublishResult(
          key, work, target.toUri().toString(), checksum, featureCount, Outcome.UNCHANGED);
    }
    Path temp = dir.resolve(TEMP_PREFIX + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      AtomicFiles.write(temp, bytes);
      steps.reached(Step.TEMP_WRITTEN);
      validate(temp, checksum, featureCount);
      steps.reached(Step.VALIDATED);
      AtomicFiles.move(temp, target);
      steps.reached(Step.MOVED);
      AtomicFiles.forceDirectory(dir);
      steps.reached(Step.DIRECTORY_FORCED);
    } catch (IOException | RuntimeException e) {
      // An ordinary failure cleans up after itself. A dying process does not: what it leaves is a
      // hidden temporary file, which `reap` removes and which never stands at a final name.
      Files.deleteIfExists(temp);
      throw e;
    }
    return new PublishResult(
        key, work, target.toUri().toString(), checksum, featureCount, Outcome.WRITTEN);
  }

  private void validate(Path temp, String checksum, long featureCount) throws IOException {
    byte[] written = Files.readAllBytes(temp);
    String actual = Checksums.of(written);
    if (!actual.equals(checksum)) {
      throw new IOException(
          "temporary file " + temp + " reads back as " + actual + ", wrote " + checksum);
    }
    long parsed = format.countFeatures(written);
    if (parsed != featureCount) {
      throw new IOException(
          "temporary file "
              + temp
              + " parses to "
              + parsed
              + " features, expected "
              + featureCount);
    }
  }
}
