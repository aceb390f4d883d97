package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.TileContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Publishes tiles to a local or NFS directory as {@code <root>/<layer>/<z>/<x>/<y>.<ext>}.
 *
 * <p>Each attempt writes a hidden temporary file with a unique attempt id in the final directory,
 * forces it to disk, reads it back to validate it (checksum and feature count), and then moves it
 * atomically onto the final name and forces the directory. A reader therefore sees the old file or
 * the new one, never a part; a temporary file never appears under a final name. When the final file
 * already holds the same bytes, it is left alone.
 *
 * <p>A batch ({@link #publishAll}) takes each step for all its tiles before the next: every
 * temporary file is written, then all are forced, validated and moved, then each directory is
 * forced once. Every tile is as durable as alone, for a third of the disk flushes' cost (one
 * directory flush serves all the tiles of a column, and the file system commits the batch's data
 * flushes together).
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
  public PublishResult publish(TileContent tile) throws TileDataException, IOException {
    if (crs == null) {
      throw new IllegalStateException("this sink publishes encoded bytes only");
    }
    Attempt a = publishAll(List.of(tile)).get(0);
    if (a.failure() != null) {
      throw a.failure();
    }
    return a.result();
  }

  /** The final path of a tile. */
  public Path finalPath(TileWork work) {
    return root.resolve(TilePaths.relative(work, format.extension()));
  }

  @Override
  public List<Attempt> publishAll(List<? extends TileContent> tiles) throws IOException {
    if (crs == null) {
      throw new IllegalStateException("this sink publishes encoded bytes only");
    }
    List<Attempt> attempts = new ArrayList<>(tiles.size());
    List<Encoded> toWrite = new ArrayList<>(tiles.size());
    for (TileContent tile : tiles) {
      TileFormat.Encoded encoded;
      try {
        encoded = EncodedTiles.encode(format, crs, tile);
      } catch (TileDataException e) {
        attempts.add(new Attempt(null, e));
        continue;
      }
      Encoded e = new Encoded(tile.key(), tile.work(), encoded.bytes(), encoded.features());
      toWrite.add(e);
      attempts.add(null);
    }
    List<Attempt> written = publishOrFailPermanently(toWrite);
    int next = 0;
    for (int i = 0; i < attempts.size(); i++) {
      if (attempts.get(i) == null) {
        attempts.set(i, written.get(next++));
      }
    }
    return attempts;
  }

  /**
   * The batch published in one go; when a storage error no retry clears stops it (a layer directory
   * that may not be written), its tiles one by one, so that only the tiles that meet the error
   * fail, each with its reason, and the others are published.
   */
  private List<Attempt> publishOrFailPermanently(List<Encoded> tiles) throws IOException {
    try {
      return publishEncoded(tiles).stream().map(r -> new Attempt(r, null)).toList();
    } catch (IOException e) {
      if (!StorageErrors.permanent(e)) {
        throw e;
      }
    }
    List<Attempt> out = new ArrayList<>(tiles.size());
    for (Encoded tile : tiles) {
      try {
        out.add(new Attempt(publishEncoded(List.of(tile)).get(0), null));
      } catch (IOException e) {
        if (!StorageErrors.permanent(e)) {
          throw e;
        }
        out.add(
            new Attempt(
                null,
                new TileDataException(
                    "storage", "cannot be written: " + StorageErrors.describe(e), e)));
      }
    }
    return out;
  }

  /**
   * Publishes the tile's bytes.
   *
   * @throws IOException when writing, validating or moving fails; the final file is then untouched
   */
  public PublishResult publish(WorkKey key, TileWork work, byte[] bytes, long featureCount)
      throws IOException {
    return publishEncoded(List.of(new Encoded(key, work, bytes, featureCount))).get(0);
  }

  /** A tile's bytes, ready to publish. */
  private record Encoded(WorkKey key, TileWork work, byte[] bytes, long features) {}

  /** A tile being published: where it goes and its temporary file. */
  private record Pending(Encoded tile, Path target, String checksum, Path temp) {}

  /**
   * Publishes encoded tiles step by step for the whole batch; the results come in input order. On
   * any failure every temporary file of the batch is removed and the final files moved so far stay
   * (each is whole).
   */
  private List<PublishResult> publishEncoded(List<Encoded> tiles) throws IOException {
    PublishResult[] results = new PublishResult[tiles.size()];
    List<Pending> pending = new ArrayList<>();
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < tiles.size(); i++) {
      Encoded e = tiles.get(i);
      Path target = finalPath(e.work());
      String checksum = Checksums.of(e.bytes());
      if (Files.isRegularFile(target) && checksum.equals(Checksums.of(target))) {
        results[i] = result(e, target, checksum, Outcome.UNCHANGED);
        continue;
      }
      Path temp =
          target.resolveSibling(
              TEMP_PREFIX + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
      pending.add(new Pending(e, target, checksum, temp));
      slots.add(i);
    }
    if (pending.isEmpty()) {
      return List.of(results);
    }
    try {
      Set<Path> created = new HashSet<>();
      for (Pending p : pending) {
        // A batch's tiles share few directories: each is made once, not once per tile.
        if (created.add(p.target().getParent())) {
          Files.createDirectories(p.target().getParent());
        }
        AtomicFiles.writeUnforced(p.temp(), p.tile().bytes());
      }
      for (Pending p : pending) {
        AtomicFiles.force(p.temp());
      }
      steps.reached(Step.TEMP_WRITTEN);
      for (Pending p : pending) {
        validate(p.temp(), p.checksum(), p.tile().features());
      }
      steps.reached(Step.VALIDATED);
      Set<Path> dirs = new LinkedHashSet<>();
      for (Pending p : pending) {
        AtomicFiles.move(p.temp(), p.target());
        dirs.add(p.target().getParent());
      }
      steps.reached(Step.MOVED);
      for (Path dir : dirs) {
        AtomicFiles.forceDirectory(dir);
      }
      steps.reached(Step.DIRECTORY_FORCED);
    } catch (IOException | RuntimeException e) {
      // An ordinary failure cleans up after itself. A dying process does not: what it leaves is a
      // hidden temporary file, which `reap` removes and which never stands at a final name.
      for (Pending p : pending) {
        try {
          Files.deleteIfExists(p.temp());
        } catch (IOException cleanup) {
          // The failure is the one to report (a temp whose directory cannot be made cannot be
          // deleted either); the clean-up's own is kept beside it.
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    }
    for (int k = 0; k < pending.size(); k++) {
      Pending p = pending.get(k);
      results[slots.get(k)] = result(p.tile(), p.target(), p.checksum(), Outcome.WRITTEN);
    }
    return List.of(results);
  }

  private static PublishResult result(Encoded e, Path target, String checksum, Outcome outcome) {
    return new PublishResult(
        e.key(), e.work(), target.toUri().toString(), checksum, e.features(), outcome);
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
