package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.TileDataException;
import io.tilebeam.transforms.reproject.RenderedTile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LocalTileSinkTest {

  @TempDir Path root;

  private static final TileWork WORK = SinkTestTiles.WORK;

  private static byte[] collection(int features) {
    return SinkTestTiles.collection(features);
  }

  private long filesUnder(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void publishesAtTheDeterministicPathAndLeavesNoTemporaryFile() throws IOException {
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
    PublishResult r = sink.publish(WorkKey.of(WORK), WORK, collection(2), 2);
    Path expected = root.resolve("roads/3/4/5.geojson");
    assertEquals(PublishResult.Outcome.WRITTEN, r.outcome());
    assertEquals(expected.toUri().toString(), r.uri());
    assertArrayEquals(collection(2), Files.readAllBytes(expected));
    assertEquals(Checksums.of(collection(2)), r.checksum());
    assertEquals(1, filesUnder(root));
  }

  @Test
  void sameBytesAgainAreLeftUnchanged() throws IOException {
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
    sink.publish(WorkKey.of(WORK), WORK, collection(1), 1);
    PublishResult again = sink.publish(WorkKey.of(WORK), WORK, collection(1), 1);
    assertEquals(PublishResult.Outcome.UNCHANGED, again.outcome());
  }

  @Test
  void newBytesReplaceTheOldFileWhole() throws IOException {
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
    sink.publish(WorkKey.of(WORK), WORK, collection(1), 1);
    PublishResult r = sink.publish(WorkKey.of(WORK), WORK, collection(3), 3);
    assertEquals(PublishResult.Outcome.WRITTEN, r.outcome());
    assertArrayEquals(collection(3), Files.readAllBytes(root.resolve("roads/3/4/5.geojson")));
    assertEquals(1, filesUnder(root));
  }

  @Test
  void bytesThatDoNotValidateNeverReachTheFinalName() throws IOException {
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
    sink.publish(WorkKey.of(WORK), WORK, collection(1), 1);
    // Claims 5 features but holds 2: validation fails, the old file stays, no temporary remains.
    assertThrows(IOException.class, () -> sink.publish(WorkKey.of(WORK), WORK, collection(2), 5));
    assertArrayEquals(collection(1), Files.readAllBytes(root.resolve("roads/3/4/5.geojson")));
    assertEquals(1, filesUnder(root));
  }

  /**
   * A publish stopped at each step boundary, over no file and over an older one, then a rerun: the
   * final name only ever holds a whole tile (the old one or the new one), the rerun publishes the
   * new one, and what the crash left is a hidden temporary file that reap's prefix finds.
   */
  @ParameterizedTest
  @EnumSource(LocalTileSink.Step.class)
  void aPublishStoppedAtAnyStepLeavesAWholeTileAndTheRerunFinishesIt(LocalTileSink.Step stop)
      throws IOException {
    for (boolean olderFile : new boolean[] {false, true}) {
      Path dir = Files.createTempDirectory(root, "crash");
      byte[] old = collection(1);
      byte[] fresh = collection(3);
      LocalTileSink clean = new LocalTileSink(dir, new GeoJsonFormat());
      Path target = clean.finalPath(WORK);
      if (olderFile) {
        clean.publish(WorkKey.of(WORK), WORK, old, 1);
      }
      LocalTileSink dying = new LocalTileSink(dir, new GeoJsonFormat(), null, Crash.at(stop));
      assertThrows(Crash.class, () -> dying.publish(WorkKey.of(WORK), WORK, fresh, 3));

      boolean moved = stop.compareTo(LocalTileSink.Step.MOVED) >= 0;
      if (moved) {
        assertArrayEquals(fresh, Files.readAllBytes(target), stop + ": the new tile, whole");
      } else if (olderFile) {
        assertArrayEquals(old, Files.readAllBytes(target), stop + ": the old tile, untouched");
      } else {
        assertFalse(Files.exists(target), stop + ": no tile yet");
      }
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.filter(Files::isRegularFile).toList()) {
          String name = p.getFileName().toString();
          assertTrue(
              p.equals(target) || name.startsWith(LocalTileSink.TEMP_PREFIX),
              stop + ": only the final tile and hidden temporary files, found " + name);
        }
      }

      PublishResult rerun = clean.publish(WorkKey.of(WORK), WORK, fresh, 3);
      assertArrayEquals(fresh, Files.readAllBytes(target));
      assertEquals(
          moved ? PublishResult.Outcome.UNCHANGED : PublishResult.Outcome.WRITTEN,
          rerun.outcome(),
          stop.toString());
    }
  }

  private static RenderedTile tile(int x, int y, String pointWkt) throws Exception {
    return SinkTestTiles.rendered(x, y, pointWkt, List.of());
  }

  @Test
  void aBatchPublishesEveryTileInOrderAndLeavesUnchangedOnesAlone() throws Exception {
    LocalTileSink sink =
        new LocalTileSink(root, new GeoJsonFormat(), CrsRef.of("EPSG:3857"), StepListener.NONE);
    RenderedTile first = tile(4, 5, "POINT (1 2)");
    sink.publish(first);
    List<RenderedTile> batch =
        List.of(
            tile(4, 6, "POINT (3 4)"), first, tile(4, 7, "POINT (5 6)"), tile(5, 0, "POINT (7 8)"));
    List<TileSink.Attempt> attempts = sink.publishAll(batch);
    assertEquals(4, attempts.size());
    for (int i = 0; i < batch.size(); i++) {
      PublishResult r = attempts.get(i).result();
      assertEquals(batch.get(i).work(), r.work(), "attempt " + i + " is tile " + i);
      assertEquals(
          i == 1 ? PublishResult.Outcome.UNCHANGED : PublishResult.Outcome.WRITTEN, r.outcome());
      assertTrue(Files.readString(sink.finalPath(r.work())).contains("\"id\":\"a\""), r.toString());
    }
    assertEquals(4, filesUnder(root), "four tiles and no temporary file");
  }

  /**
   * A storage error no retry clears (here a file where a tile's directory goes) fails the tiles it
   * meets, with their reason, and the batch's other tiles are published.
   */
  @Test
  void aPermanentStorageErrorFailsOnlyTheTilesItMeets() throws Exception {
    LocalTileSink sink =
        new LocalTileSink(root, new GeoJsonFormat(), CrsRef.of("EPSG:3857"), StepListener.NONE);
    RenderedTile probe = tile(4, 1, "POINT (1 2)");
    Path column = sink.finalPath(probe.work()).getParent();
    Files.createDirectories(column.getParent());
    Files.writeString(column, "a file where the x = 4 column's directory goes");
    List<RenderedTile> batch = List.of(probe, tile(5, 1, "POINT (3 4)"), tile(4, 2, "POINT (5 6)"));

    List<TileSink.Attempt> attempts = sink.publishAll(batch);

    for (int i : new int[] {0, 2}) {
      TileDataException e = attempts.get(i).failure();
      assertEquals("storage", e.errorClass(), "tile " + i);
      assertEquals(
          "cannot be written: a file stands where a directory must be made: " + column,
          e.getMessage());
    }
    assertEquals(PublishResult.Outcome.WRITTEN, attempts.get(1).result().outcome());
    assertEquals(2, filesUnder(root), "the tile at x = 5, the file in the way, no temporary file");
  }

  @Test
  void aBatchStoppedAtAnyStepLeavesOnlyWholeTiles() throws Exception {
    for (LocalTileSink.Step stop : LocalTileSink.Step.values()) {
      Path dir = Files.createTempDirectory(root, "batch");
      CrsRef crs = CrsRef.of("EPSG:3857");
      List<RenderedTile> batch = List.of(tile(4, 6, "POINT (3 4)"), tile(6, 1, "POINT (5 6)"));
      LocalTileSink dying = new LocalTileSink(dir, new GeoJsonFormat(), crs, Crash.at(stop));
      assertThrows(Crash.class, () -> dying.publishAll(batch));
      LocalTileSink clean = new LocalTileSink(dir, new GeoJsonFormat(), crs, StepListener.NONE);
      boolean moved = stop.compareTo(LocalTileSink.Step.MOVED) >= 0;
      for (RenderedTile t : batch) {
        assertEquals(moved, Files.exists(clean.finalPath(t.work())), stop + ": all or none");
      }
      for (TileSink.Attempt a : clean.publishAll(batch)) {
        assertEquals(
            moved ? PublishResult.Outcome.UNCHANGED : PublishResult.Outcome.WRITTEN,
            a.result().outcome(),
            stop.toString());
      }
    }
  }

  @Test
  void publishesOfOneTileAtOnceEndWithOneWholeVersionAndNoTemporaryFile() throws Exception {
    LocalTileSink sink = new LocalTileSink(root, new GeoJsonFormat());
    java.util.List<byte[]> versions = new java.util.ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      versions.add(collection(i * 50));
    }
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 20; round++) {
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<PublishResult>> all =
            new java.util.ArrayList<>();
        for (int i = 0; i < versions.size(); i++) {
          byte[] bytes = versions.get(i);
          long features = (i + 1) * 50L;
          all.add(
              pool.submit(
                  () -> {
                    start.await();
                    return sink.publish(WorkKey.of(WORK), WORK, bytes, features);
                  }));
        }
        start.countDown();
        for (java.util.concurrent.Future<PublishResult> f : all) {
          f.get();
        }
        byte[] result = Files.readAllBytes(sink.finalPath(WORK));
        assertTrue(
            versions.stream().anyMatch(v -> java.util.Arrays.equals(v, result)),
            "round " + round + ": the file is one whole version");
        assertEquals(1, filesUnder(root), "round " + round + ": no temporary file left");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
