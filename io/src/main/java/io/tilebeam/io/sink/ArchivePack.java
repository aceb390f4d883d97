package io.tilebeam.io.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tilebeam.codec.mvt.MvtFields;
import io.tilebeam.codec.pmtiles.HilbertTileId;
import io.tilebeam.codec.pmtiles.PmtilesEntry;
import io.tilebeam.codec.pmtiles.PmtilesHeader;
import io.tilebeam.codec.pmtiles.PmtilesReader;
import io.tilebeam.codec.pmtiles.PmtilesWriter;
import io.tilebeam.io.format.MvtFormat;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.transforms.digest.Sha256;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The pack stage of a layer published as a PMTiles archive: the layer's completed tiles, read from
 * staging, made into one archive, published whole.
 *
 * <p>The pack is idempotent. Its key is the digest of the sorted (work key, checksum) list of the
 * layer's tiles; the published archive carries it in its metadata (and, on GCS, in the object's
 * metadata). When the archive already has the key nothing is written. Otherwise the staged tiles
 * are read (each checked against the checksum the ledger recorded), their distinct contents spilled
 * to a file in Hilbert order, the archive written to a temporary name, read back and checked, and
 * published by the {@link ArchiveTarget}: a rename over the final name, or a copy with a generation
 * precondition. A reader sees the old archive whole or the new one whole; a pack killed anywhere is
 * packed again by the next run.
 */
public final class ArchivePack implements AutoCloseable {

  /** The version of the packing: part of every pack key, changed when an archive's bytes change. */
  static final String VERSION = "tilebeam-pmtiles-1";

  /** The member of the archive metadata's {@code tilebeam} object holding the pack key. */
  public static final String PACK_KEY = "pack_key";

  /** Staged tiles read ahead of the writer, so that remote reads overlap. */
  private static final int READ_AHEAD = 64;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A completed tile of the layer.
   *
   * @param key its work key
   * @param z zoom
   * @param x column
   * @param y row, from the top
   * @param checksum the checksum of its published bytes, as the ledger recorded it
   * @param features its feature count (1 for a raster tile)
   */
  public record Tile(String key, int z, long x, long y, String checksum, long features) {}

  /** What a pack did. */
  public enum Outcome {
    /** A new archive was published. */
    WRITTEN,
    /** The published archive already held these tiles: nothing was written. */
    UNCHANGED
  }

  /**
   * What a pack did, with its figures.
   *
   * @param outcome written or unchanged
   * @param uri the archive
   * @param packKey the pack's key
   * @param tiles tiles addressed by the archive
   * @param contents distinct tile contents stored
   * @param bytes the archive's size (0 when unchanged)
   */
  public record Result(
      Outcome outcome, String uri, String packKey, long tiles, long contents, long bytes) {}

  /** The boundaries between a pack's local steps, where a process can die. */
  enum Step {
    /** The distinct contents are read from staging and spilled. */
    SPILLED,
    /** The temporary archive is written and forced to disk. */
    TEMP_WRITTEN,
    /** The temporary archive read back and checked. */
    VALIDATED
  }

  /** Reads a staged tile's bytes. */
  interface StagedTiles {
    byte[] read(Tile tile) throws IOException;
  }

  private final ArchiveSpec spec;
  private final StagedTiles staged;
  private final ArchiveTarget target;
  private final StepListener steps;

  ArchivePack(ArchiveSpec spec, StagedTiles staged, ArchiveTarget target, StepListener steps) {
    this.spec = spec;
    this.staged = staged;
    this.target = target;
    this.steps = steps;
  }

  /** The pack of {@code spec}'s archive, local, on GCS or on S3; close it. */
  public static ArchivePack open(ArchiveSpec spec, String runId, RetryPolicy retry) {
    if (spec.location() instanceof OutputLocation.Gcs) {
      GcsArchiveTarget gcs = new GcsArchiveTarget(spec, runId, retry, StepListener.NONE);
      return new ArchivePack(spec, gcs::readStaged, gcs, StepListener.NONE);
    }
    if (spec.location() instanceof OutputLocation.S3) {
      S3ArchiveTarget s3 = new S3ArchiveTarget(spec, StepListener.NONE);
      return new ArchivePack(spec, s3::readStaged, s3, StepListener.NONE);
    }
    return new ArchivePack(
        spec,
        localStaged(spec),
        new LocalArchiveTarget(spec, StepListener.NONE),
        StepListener.NONE);
  }

  @Override
  public void close() {
    if (target instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing a client frees its threads; nothing was left undone.
      }
    }
  }

  /** Staged tiles read from the local staging directory. */
  static StagedTiles localStaged(ArchiveSpec spec) {
    Path root = ((OutputLocation.Local) spec.staging()).root();
    return t -> Files.readAllBytes(root.resolve(stagedName(spec, t)));
  }

  /** A staged tile's name below the staging location: {@code <layer>/<z>/<x>/<y>.<ext>}. */
  static String stagedName(ArchiveSpec spec, Tile t) {
    return spec.layer() + "/" + t.z() + "/" + t.x() + "/" + t.y() + "." + spec.tiles().extension();
  }

  /** The pack key of these tiles: the digest of their sorted (work key, checksum) list. */
  public static String packKey(List<Tile> tiles) {
    List<Tile> sorted = new ArrayList<>(tiles);
    sorted.sort(Comparator.comparing(Tile::key));
    MessageDigest d = Sha256.create();
    d.update((VERSION + "\n").getBytes(StandardCharsets.UTF_8));
    for (Tile t : sorted) {
      d.update((t.key() + " " + t.checksum() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return "sha256:" + HexFormat.of().formatHex(d.digest());
  }

  /**
   * Packs the layer's tiles, every one of them completed, unless the published archive already
   * holds them.
   *
   * @throws IOException when a staged tile cannot be read or differs from what the ledger recorded,
   *     or the archive cannot be written, checked or published; the published archive is then the
   *     one before, whole
   */
  public Result pack(List<Tile> tiles) throws IOException {
    String key = packKey(tiles);
    if (key.equals(target.publishedKey())) {
      return new Result(Outcome.UNCHANGED, spec.uri(), key, 0, 0, 0);
    }
    List<Tile> held = new ArrayList<>();
    for (Tile t : tiles) {
      if (spec.holds(t.features())) {
        held.add(t);
      }
    }
    Path spill = target.newTempFile(".spill");
    Path archive = null;
    try {
      Spilled spilled = spill(held, spill);
      steps.reached(Step.SPILLED);
      archive = target.newTempFile(".tmp");
      Written written = write(spilled, tiles, key, spill, archive);
      steps.reached(Step.TEMP_WRITTEN);
      check(archive, written, spilled, key);
      steps.reached(Step.VALIDATED);
      Outcome outcome = target.publish(archive, key, written.checksum);
      archive = null; // published: the temporary name is gone
      return new Result(
          outcome,
          spec.uri(),
          key,
          written.header.addressedTiles(),
          written.header.tileContents(),
          written.size);
    } finally {
      Files.deleteIfExists(spill);
      if (archive != null) {
        Files.deleteIfExists(archive);
      }
    }
  }

  /** The held tiles with their lengths, and the MVT fields of their contents. */
  private record Spilled(List<PmtilesWriter.Tile> tiles, MvtFields fields) {}

  /**
   * Reads each distinct content once, in the order the archive stores them (first use in Hilbert
   * order), checks it against its checksum and appends it to {@code spill}; reads run ahead on a
   * small pool so that remote staging is not read one request at a time.
   */
  private Spilled spill(List<Tile> held, Path spill) throws IOException {
    List<Tile> sorted = new ArrayList<>(held);
    sorted.sort(Comparator.comparingLong(t -> HilbertTileId.of(t.z(), t.x(), t.y())));
    Map<String, Tile> firstUse = new java.util.LinkedHashMap<>();
    for (Tile t : sorted) {
      firstUse.putIfAbsent(t.checksum(), t);
    }
    Map<String, Long> lengths = new HashMap<>();
    MvtFields fields = new MvtFields();
    boolean vector = spec.tiles() instanceof MvtFormat;
    ExecutorService pool = Executors.newFixedThreadPool(8, daemon());
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 20)) {
      ArrayDeque<Future<byte[]>> ahead = new ArrayDeque<>();
      List<Tile> order = new ArrayList<>(firstUse.values());
      int next = 0;
      for (Tile t : order) {
        while (next < order.size() && ahead.size() < READ_AHEAD) {
          Tile r = order.get(next++);
          ahead.add(pool.submit(() -> readChecked(r)));
        }
        byte[] bytes = await(ahead.poll());
        out.write(bytes);
        lengths.put(t.checksum(), (long) bytes.length);
        if (vector) {
          fields.add(bytes);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    List<PmtilesWriter.Tile> out = new ArrayList<>(sorted.size());
    for (Tile t : sorted) {
      out.add(new PmtilesWriter.Tile(t.z(), t.x(), t.y(), lengths.get(t.checksum()), t.checksum()));
    }
    return new Spilled(out, fields);
  }

  private byte[] readChecked(Tile t) throws IOException {
    byte[] bytes;
    try {
      bytes = staged.read(t);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException(
          "staged tile " + stagedName(spec, t) + " is missing; the ledger says it was published",
          e);
    }
    String checksum = Checksums.of(bytes);
    if (!checksum.equals(t.checksum())) {
      throw new IOException(
          "staged tile "
              + stagedName(spec, t)
              + " holds "
              + checksum
              + ", not the "
              + t.checksum()
              + " the ledger recorded: it was replaced since (another job writing the same"
              + " output?)");
    }
    return bytes;
  }

  private static byte[] await(Future<byte[]> f) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading staged tiles", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause().getMessage(), e.getCause());
    }
  }

  private static java.util.concurrent.ThreadFactory daemon() {
    return r -> {
      Thread t = new Thread(r, "tilebeam-pack-read");
      t.setDaemon(true);
      return t;
    };
  }

  /** The archive as written: its header, size and checksum. */
  private record Written(PmtilesHeader header, long size, String checksum) {}

  private Written write(Spilled spilled, List<Tile> all, String key, Path spill, Path archive)
      throws IOException {
    double[] bounds = bounds(all);
    String metadata = metadata(spilled, all.size(), key, bounds);
    PmtilesWriter.Info info =
        new PmtilesWriter.Info(
            spec.tileType(), 1, spec.minZoom(), spec.maxZoom(), bounds, metadata);
    MessageDigest digest = Sha256.create();
    PmtilesHeader header;
    try (InputStream data = new BufferedInputStream(Files.newInputStream(spill), 1 << 20);
        java.io.FileOutputStream file = new java.io.FileOutputStream(archive.toFile());
        DigestOutputStream out =
            new DigestOutputStream(new BufferedOutputStream(file, 1 << 20), digest)) {
      header =
          PmtilesWriter.write(spilled.tiles(), t -> data.readNBytes((int) t.length()), info, out);
      out.flush();
      file.getChannel().force(true);
    }
    return new Written(
        header, Files.size(archive), "sha256:" + HexFormat.of().formatHex(digest.digest()));
  }

  /**
   * Reads the temporary archive back: its bytes are those written, its header the one written, its
   * metadata carries the pack key, and every held tile is addressed with its length.
   */
  private static void check(Path archive, Written written, Spilled spilled, String key)
      throws IOException {
    String onDisk = Checksums.of(archive);
    if (!onDisk.equals(written.checksum)) {
      throw new IOException(
          "the archive reads back as " + onDisk + ", written as " + written.checksum);
    }
    try (PmtilesReader reader = PmtilesReader.open(archive)) {
      if (!reader.header().equals(written.header)) {
        throw new IOException("the archive's header reads back differently");
      }
      if (!key.equals(packKeyOf(reader))) {
        throw new IOException("the archive's metadata does not carry its pack key");
      }
      for (PmtilesWriter.Tile t : spilled.tiles()) {
        PmtilesEntry e = reader.entry(t.z(), t.x(), t.y());
        if (e == null || e.length() != t.length()) {
          throw new IOException(
              "tile " + t.z() + "/" + t.x() + "/" + t.y() + " is not addressed in the archive");
        }
      }
    }
  }

  /** The pack key an archive's metadata carries, or null. */
  static String packKeyOf(PmtilesReader reader) throws IOException {
    JsonNode key = JSON.readTree(reader.metadata()).path("tilebeam").path(PACK_KEY);
    return key.isTextual() ? key.asText() : null;
  }

  /**
   * The metadata JSON: the fields TileJSON and the PMTiles tools read (name, format, zooms, bounds,
   * centre, and for vector tiles each layer's fields), and tilebeam's own (the pack key).
   */
  private String metadata(Spilled spilled, long planned, String key, double[] bounds)
      throws IOException {
    ObjectNode m = JSON.createObjectNode();
    m.put("name", spec.layer());
    m.put("format", spec.metadataFormat());
    m.put("type", "overlay");
    m.put("generator", "tilebeam");
    m.put("minzoom", spec.minZoom());
    m.put("maxzoom", spec.maxZoom());
    ArrayNode b = m.putArray("bounds");
    for (double v : bounds) {
      b.add(v);
    }
    ArrayNode c = m.putArray("center");
    c.add((bounds[0] + bounds[2]) / 2).add((bounds[1] + bounds[3]) / 2).add(spec.minZoom());
    if (spec.tiles() instanceof MvtFormat) {
      ArrayNode layers = m.putArray("vector_layers");
      spilled
          .fields()
          .layers()
          .forEach(
              (name, fields) -> {
                ObjectNode l = layers.addObject();
                l.put("id", name);
                ObjectNode f = l.putObject("fields");
                fields.forEach(f::put);
                l.put("minzoom", spec.minZoom());
                l.put("maxzoom", spec.maxZoom());
              });
    }
    ObjectNode own = m.putObject("tilebeam");
    own.put(PACK_KEY, key);
    own.put("planned_tiles", planned);
    own.put("archived_tiles", spilled.tiles().size());
    return JSON.writeValueAsString(m);
  }

  /** West, south, east, north in degrees of the union of the layer's tiles (Web Mercator). */
  static double[] bounds(List<Tile> tiles) {
    if (tiles.isEmpty()) {
      return new double[] {-180, -85.0511287, 180, 85.0511287};
    }
    double w = 180;
    double s = 90;
    double e = -180;
    double n = -90;
    for (Tile t : tiles) {
      double size = Math.scalb(1.0, t.z());
      w = Math.min(w, t.x() / size * 360 - 180);
      e = Math.max(e, (t.x() + 1) / size * 360 - 180);
      n = Math.max(n, latitude(t.y() / size));
      s = Math.min(s, latitude((t.y() + 1) / size));
    }
    return new double[] {round7(w), round7(s), round7(e), round7(n)};
  }

  private static double latitude(double fromTop) {
    return StrictMath.toDegrees(StrictMath.atan(StrictMath.sinh(Math.PI * (1 - 2 * fromTop))));
  }

  private static double round7(double v) {
    return Math.round(v * 1e7) / 1e7;
  }
}
