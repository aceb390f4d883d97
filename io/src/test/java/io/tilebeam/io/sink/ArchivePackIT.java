package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.codec.pmtiles.PmtilesReader;
import io.tilebeam.io.format.RasterFormat;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn.StoredObject;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pack stage on its own, local and through the real GCS client against {@link GcsStandIn}: an
 * ocean of identical tiles stored once; a pack with nothing changed writes nothing (bytes and mtime
 * kept); a changed tile repacks; a staged tile that is not what the ledger recorded fails the pack
 * and leaves the published archive; a pack killed at any step leaves the old archive whole or the
 * new one whole, and the next pack finishes.
 */
class ArchivePackIT {

  private static final int OCEAN_TILES = 341; // zooms 0-4

  @TempDir Path dir;

  private static GcsStandIn server;
  private static Storage client;
  private static int buckets;

  @BeforeAll
  static void startServer() throws IOException {
    server = GcsStandIn.start();
    client = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT).open();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  /** An ocean at zooms 0-4 and {@code land} distinct tiles at zoom 6, each with its bytes. */
  private static List<Staged> oceanAndLand(int land, long seed) {
    List<Staged> out = new ArrayList<>();
    byte[] ocean = "ocean".getBytes(StandardCharsets.UTF_8);
    for (int z = 0; z <= 4; z++) {
      for (int x = 0; x < 1 << z; x++) {
        for (int y = 0; y < 1 << z; y++) {
          out.add(new Staged(z, x, y, ocean));
        }
      }
    }
    Random random = new Random(seed);
    for (int i = 0; i < land; i++) {
      byte[] b = new byte[50 + random.nextInt(200)];
      random.nextBytes(b);
      out.add(new Staged(6, i % 64, i / 64, b));
    }
    return out;
  }

  private record Staged(int z, long x, long y, byte[] bytes) {
    ArchivePack.Tile tile() {
      return new ArchivePack.Tile("key-" + z + "-" + x + "-" + y, z, x, y, Checksums.of(bytes), 1);
    }
  }

  private static List<ArchivePack.Tile> tiles(List<Staged> staged) {
    return staged.stream().map(Staged::tile).toList();
  }

  private ArchiveSpec localSpec(Path out) {
    return new ArchiveSpec(
        new OutputLocation.Local(out.toString()),
        "land",
        RasterFormat.PNG,
        0,
        6,
        (io.tilebeam.io.storage.Stores) null);
  }

  private static void stageLocally(ArchiveSpec spec, List<Staged> tiles) throws IOException {
    Path root = ((OutputLocation.Local) spec.staging()).root();
    for (Staged t : tiles) {
      Path p = root.resolve(ArchivePack.stagedName(spec, t.tile()));
      Files.createDirectories(p.getParent());
      Files.write(p, t.bytes());
    }
  }

  private ArchivePack localPack(ArchiveSpec spec, StepListener steps) {
    return new ArchivePack(
        spec, ArchivePack.localStaged(spec), new LocalArchiveTarget(spec, steps), steps);
  }

  @Test
  void anOceanIsStoredOnceAndAPackWithNothingChangedWritesNothing() throws Exception {
    ArchiveSpec spec = localSpec(dir.resolve("out"));
    List<Staged> staged = oceanAndLand(60, 1);
    stageLocally(spec, staged);
    ArchivePack.Result first = localPack(spec, StepListener.NONE).pack(tiles(staged));
    assertEquals(ArchivePack.Outcome.WRITTEN, first.outcome());
    assertEquals(OCEAN_TILES + 60, first.tiles());
    assertEquals(61, first.contents(), "the ocean stored once");
    Path archive = spec.localArchive();
    try (PmtilesReader r = PmtilesReader.open(archive)) {
      assertEquals(2, r.header().tileType(), "PNG");
      for (Staged t : staged) {
        assertArrayEquals(
            t.bytes(), r.tile(t.z(), t.x(), t.y()), t.z() + "/" + t.x() + "/" + t.y());
      }
      assertEquals(first.packKey(), ArchivePack.packKeyOf(r));
    }

    byte[] bytes = Files.readAllBytes(archive);
    FileTime past = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(archive, past);
    ArchivePack.Result again = localPack(spec, StepListener.NONE).pack(tiles(staged));
    assertEquals(ArchivePack.Outcome.UNCHANGED, again.outcome());
    assertEquals(first.packKey(), again.packKey());
    assertArrayEquals(bytes, Files.readAllBytes(archive));
    assertEquals(past, Files.getLastModifiedTime(archive), "not written again");
    assertEquals(List.of("_staging", "land.pmtiles"), names(dir.resolve("out")));
  }

  @Test
  void aChangedTileRepacksAndAStagedTileUnlikeTheLedgerFailsThePack() throws Exception {
    ArchiveSpec spec = localSpec(dir.resolve("out"));
    List<Staged> staged = new ArrayList<>(oceanAndLand(60, 2));
    stageLocally(spec, staged);
    ArchivePack.Result first = localPack(spec, StepListener.NONE).pack(tiles(staged));
    byte[] before = Files.readAllBytes(spec.localArchive());

    Staged changed = new Staged(6, 5, 0, "changed".getBytes(StandardCharsets.UTF_8));
    staged.set(OCEAN_TILES + 5, changed);
    // Staged, but the ledger (the tiles' checksums) still says the old bytes: refused.
    stageLocally(spec, List.of(changed));
    List<ArchivePack.Tile> stale = tiles(oceanAndLand(60, 2));
    List<ArchivePack.Tile> rekeyed = new ArrayList<>(stale);
    rekeyed.set(0, new ArchivePack.Tile("another-key", 0, 0, 0, stale.get(0).checksum(), 1));
    IOException e =
        assertThrows(IOException.class, () -> localPack(spec, StepListener.NONE).pack(rekeyed));
    assertTrue(e.getMessage().contains("land/6/5/0.png"), e.getMessage());
    assertTrue(e.getMessage().contains("the ledger recorded"), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(spec.localArchive()), "the archive before");

    ArchivePack.Result second = localPack(spec, StepListener.NONE).pack(tiles(staged));
    assertEquals(ArchivePack.Outcome.WRITTEN, second.outcome());
    assertNotEquals(first.packKey(), second.packKey());
    try (PmtilesReader r = PmtilesReader.open(spec.localArchive())) {
      assertArrayEquals(changed.bytes(), r.tile(6, 5, 0));
    }
    assertEquals(List.of("_staging", "land.pmtiles"), names(dir.resolve("out")));
  }

  /** Every step of a local pack where a process can die. */
  static Stream<Enum<?>> localSteps() {
    return Stream.concat(
        Stream.of(ArchivePack.Step.values()), Stream.of(LocalArchiveTarget.Step.values()));
  }

  @ParameterizedTest
  @MethodSource("localSteps")
  void aLocalPackKilledAtAnyStepLeavesAWholeArchiveAndTheNextPackFinishes(Enum<?> stop)
      throws Exception {
    List<Staged> old = oceanAndLand(40, 3);
    List<Staged> fresh = oceanAndLand(80, 4);
    byte[] oldBytes = cleanLocalArchive(old, "old");
    byte[] freshBytes = cleanLocalArchive(fresh, "fresh");

    ArchiveSpec spec = localSpec(dir.resolve("out"));
    stageLocally(spec, old);
    localPack(spec, StepListener.NONE).pack(tiles(old));
    stageLocally(spec, fresh);
    assertThrows(Crash.class, () -> localPack(spec, Crash.at(stop)).pack(tiles(fresh)));

    byte[] seen = Files.readAllBytes(spec.localArchive());
    boolean moved = stop instanceof LocalArchiveTarget.Step;
    assertArrayEquals(moved ? freshBytes : oldBytes, seen, stop + ": one archive, whole");
    try (Stream<Path> files = Files.list(dir.resolve("out"))) {
      files.forEach(
          f -> {
            String name = f.getFileName().toString();
            assertTrue(
                name.equals("land.pmtiles")
                    || name.equals("_staging")
                    || name.startsWith(LocalTileSink.TEMP_PREFIX),
                stop + ": left " + name);
          });
    }

    ArchivePack.Result rerun = localPack(spec, StepListener.NONE).pack(tiles(fresh));
    assertEquals(
        moved ? ArchivePack.Outcome.UNCHANGED : ArchivePack.Outcome.WRITTEN, rerun.outcome());
    assertArrayEquals(freshBytes, Files.readAllBytes(spec.localArchive()));
  }

  /** The archive of {@code tiles} packed in a directory of its own, without interruption. */
  private byte[] cleanLocalArchive(List<Staged> tiles, String name) throws IOException {
    ArchiveSpec spec = localSpec(dir.resolve(name));
    stageLocally(spec, tiles);
    localPack(spec, StepListener.NONE).pack(tiles(tiles));
    return Files.readAllBytes(spec.localArchive());
  }

  /** Every step of a GCS pack where a process can die. */
  static Stream<Enum<?>> gcsSteps() {
    return Stream.concat(
        Stream.of(ArchivePack.Step.values()), Stream.of(GcsArchiveTarget.Step.values()));
  }

  @ParameterizedTest
  @MethodSource("gcsSteps")
  void aGcsPackKilledAtAnyStepLeavesAWholeArchiveAndTheNextPackFinishes(Enum<?> stop)
      throws Exception {
    String bucket = "archives-" + ++buckets;
    server.createBucket(bucket);
    ArchiveSpec spec =
        new ArchiveSpec(
            new OutputLocation.Gcs(bucket, "tiles"),
            "land",
            RasterFormat.PNG,
            0,
            6,
            new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT));
    List<Staged> old = oceanAndLand(40, 5);
    List<Staged> fresh = oceanAndLand(80, 6);
    stageInBucket(spec, old);
    gcsPack(spec, StepListener.NONE).pack(tiles(old));
    byte[] oldBytes = archiveObject(bucket).data();
    assertEquals(
        ArchivePack.packKey(tiles(old)),
        archiveObject(bucket).metadata().get(ArchivePack.PACK_KEY));
    stageInBucket(spec, fresh);
    assertThrows(Crash.class, () -> gcsPack(spec, Crash.at(stop)).pack(tiles(fresh)));

    boolean copied =
        stop instanceof GcsArchiveTarget.Step s && s.compareTo(GcsArchiveTarget.Step.COPIED) >= 0;
    byte[] seen = archiveObject(bucket).data();
    if (copied) {
      assertFreshArchive(seen, fresh, stop);
    } else {
      assertArrayEquals(oldBytes, seen, stop + ": the old archive, untouched");
    }
    for (String name : server.objects(bucket, "").keySet()) {
      assertTrue(
          name.equals("tiles/land.pmtiles")
              || name.startsWith("tiles/_staging/land/")
              || name.startsWith("tiles/_tmp/run-1/"),
          stop + ": left " + name);
    }

    ArchivePack.Result rerun = gcsPack(spec, StepListener.NONE).pack(tiles(fresh));
    assertEquals(
        copied ? ArchivePack.Outcome.UNCHANGED : ArchivePack.Outcome.WRITTEN, rerun.outcome());
    assertFreshArchive(archiveObject(bucket).data(), fresh, stop);
  }

  private static void assertFreshArchive(byte[] archive, List<Staged> fresh, Enum<?> stop)
      throws IOException {
    try (PmtilesReader r = PmtilesReader.of(archive)) {
      assertEquals(ArchivePack.packKey(tiles(fresh)), ArchivePack.packKeyOf(r), stop.name());
      for (Staged t : fresh) {
        assertArrayEquals(t.bytes(), r.tile(t.z(), t.x(), t.y()), stop.name());
      }
    }
  }

  private static StoredObject archiveObject(String bucket) {
    StoredObject o = server.objects(bucket, "tiles/land.pmtiles").get("tiles/land.pmtiles");
    assertTrue(o != null, "no archive");
    return o;
  }

  private static void stageInBucket(ArchiveSpec spec, List<Staged> tiles) {
    OutputLocation.Gcs staging = (OutputLocation.Gcs) spec.staging();
    for (Staged t : tiles) {
      client.create(
          BlobInfo.newBuilder(
                  BlobId.of(
                      staging.bucket(), staging.objectName(ArchivePack.stagedName(spec, t.tile()))))
              .build(),
          t.bytes());
    }
  }

  private static ArchivePack gcsPack(ArchiveSpec spec, StepListener steps) {
    Retrier retrier =
        new Retrier(
            new RetryPolicy(5, Duration.ofMillis(10), Duration.ofMillis(100)),
            GcsSettings::isTransient,
            d -> {},
            () -> 0.5);
    GcsArchiveTarget target = new GcsArchiveTarget(spec, client, "run-1", retrier, steps);
    return new ArchivePack(spec, target::readStaged, target, steps);
  }

  @Test
  void theSameTilesPackedLocallyAndInABucketGiveTheSameBytes() throws Exception {
    List<Staged> staged = oceanAndLand(70, 7);
    byte[] local = cleanLocalArchive(staged, "same");
    String bucket = "archives-" + ++buckets;
    server.createBucket(bucket);
    ArchiveSpec spec =
        new ArchiveSpec(
            new OutputLocation.Gcs(bucket, "tiles"),
            "land",
            RasterFormat.PNG,
            0,
            6,
            new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT));
    stageInBucket(spec, staged);
    gcsPack(spec, StepListener.NONE).pack(tiles(staged));
    assertArrayEquals(local, archiveObject(bucket).data());
    assertNull(server.objects(bucket, "tiles/_tmp/").values().stream().findAny().orElse(null));
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
