package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.sink.GcsStandIn.Fault;
import io.tilebeam.io.sink.GcsStandIn.StoredObject;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.GcsSettings;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The GCS sink through the real client against {@link GcsStandIn}. */
class GcsTileSinkTest {

  private static final TileWork WORK = SinkTestTiles.WORK;
  private static final WorkKey KEY = WorkKey.of(WORK);
  private static final String FINAL = "tiles/roads/3/4/5.geojson";

  private static GcsStandIn server;
  private static Storage client;
  private static int buckets;
  private String bucket;
  private final List<Duration> waits = new ArrayList<>();

  @BeforeAll
  static void startServer() throws IOException {
    server = GcsStandIn.start();
    client = new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT).open();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @BeforeEach
  void freshBucket() {
    bucket = "bucket-" + ++buckets;
    server.createBucket(bucket);
  }

  private PublishSpec spec(String uri) {
    return SinkTestTiles.geoJsonSpec(
        uri, new GcsSettings(server.endpoint(), "test", RetryPolicy.DEFAULT));
  }

  private GcsTileSink sink(StepListener steps, int resumableAbove) {
    PublishSpec spec = spec("gs://" + bucket + "/tiles");
    Retrier retrier =
        new Retrier(
            new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1)),
            GcsSettings::isTransient,
            waits::add,
            () -> 0.5);
    return new GcsTileSink(client, spec, "run-1", retrier, steps, resumableAbove);
  }

  private GcsTileSink sink() {
    return sink(StepListener.NONE, GcsTileSink.RESUMABLE_ABOVE);
  }

  private static byte[] collection(int features) {
    return SinkTestTiles.collection(features);
  }

  private Map<String, StoredObject> objects() {
    return server.objects(bucket, "");
  }

  private void assertOnlyTheFinalObject(byte[] expected) {
    assertEquals(List.of(FINAL), List.copyOf(objects().keySet()));
    StoredObject o = objects().get(FINAL);
    assertArrayEquals(expected, o.data());
    assertEquals(KEY.value(), o.metadata().get(GcsTileSink.WORK_KEY));
    assertEquals(Checksums.of(expected), o.metadata().get(GcsTileSink.CHECKSUM));
  }

  @Test
  void publishesTheFinalObjectWithMetadataAndRemovesTheTemporaryOne() throws Exception {
    PublishResult r = sink().publish(KEY, WORK, collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertEquals("gs://" + bucket + "/" + FINAL, r.uri());
    assertEquals(Checksums.of(collection(2)), r.checksum());
    assertOnlyTheFinalObject(collection(2));
    assertEquals("2", objects().get(FINAL).metadata().get(GcsTileSink.FEATURES));
    assertEquals("application/geo+json", objects().get(FINAL).contentType());
  }

  @Test
  void theSameTileAgainIsLeftUnchangedAndNewBytesReplaceIt() throws Exception {
    GcsTileSink sink = sink();
    sink.publish(KEY, WORK, collection(1), 1);
    long generation = objects().get(FINAL).generation();
    assertEquals(Outcome.UNCHANGED, sink.publish(KEY, WORK, collection(1), 1).outcome());
    assertEquals(generation, objects().get(FINAL).generation(), "not rewritten");
    assertEquals(Outcome.WRITTEN, sink.publish(KEY, WORK, collection(3), 3).outcome());
    assertOnlyTheFinalObject(collection(3));
  }

  @Test
  void largeTilesGoThroughAResumableUpload() throws Exception {
    sink(StepListener.NONE, 16).publish(KEY, WORK, collection(40), 40);
    assertOnlyTheFinalObject(collection(40));
    assertTrue(server.requests().stream().anyMatch(r -> r.contains("uploadType=resumable")));
  }

  @Test
  void bytesThatDoNotParseBackFailTheTileBeforeAnyUpload() {
    int before = server.requests().size();
    TileDataException e =
        assertThrows(TileDataException.class, () -> sink().publish(KEY, WORK, collection(2), 3));
    assertEquals("encode", e.errorClass());
    assertEquals(before, server.requests().size());
  }

  /**
   * A publish stopped at each step boundary, over no object and over an older one, then a rerun:
   * the final object only ever holds a whole tile, what the crash left is under {@code _tmp/}, and
   * the rerun publishes the new tile.
   */
  @ParameterizedTest
  @EnumSource(GcsTileSink.Step.class)
  void aPublishStoppedAtAnyStepLeavesAWholeTileAndTheRerunFinishesIt(GcsTileSink.Step stop)
      throws Exception {
    for (boolean older : new boolean[] {false, true}) {
      freshBucket();
      byte[] old = collection(1);
      byte[] fresh = collection(3);
      if (older) {
        sink().publish(KEY, WORK, old, 1);
      }
      GcsTileSink dying = sink(Crash.at(stop), GcsTileSink.RESUMABLE_ABOVE);
      assertThrows(Crash.class, () -> dying.publish(KEY, WORK, fresh, 3));

      boolean copied = stop.compareTo(GcsTileSink.Step.COPIED) >= 0;
      StoredObject at = objects().get(FINAL);
      if (copied) {
        assertArrayEquals(fresh, at.data(), stop + ": the new tile, whole");
      } else if (older) {
        assertArrayEquals(old, at.data(), stop + ": the old tile, untouched");
      } else {
        assertNull(at, stop + ": no tile yet");
      }
      for (String name : objects().keySet()) {
        assertTrue(
            name.equals(FINAL) || name.startsWith("tiles/_tmp/run-1/"),
            stop + ": only the final object and temporary objects, found " + name);
      }

      PublishResult rerun = sink().publish(KEY, WORK, fresh, 3);
      assertEquals(copied ? Outcome.UNCHANGED : Outcome.WRITTEN, rerun.outcome(), stop.name());
      assertArrayEquals(fresh, objects().get(FINAL).data());
    }
  }

  @Test
  void transientErrorsAndDroppedConnectionsAreRetriedWithJitteredBackoff() throws Exception {
    server.inject(r -> r.startsWith("GET") && r.contains(bucket + "/o/"), Fault.DROP_BEFORE);
    server.inject(r -> r.contains("uploadType=multipart") && r.contains(bucket), Fault.UNAVAILABLE);
    server.inject(
        r -> r.contains("uploadType=multipart") && r.contains(bucket), Fault.TOO_MANY_REQUESTS);
    server.inject(r -> r.contains("rewriteTo") && r.contains(bucket), Fault.UNAVAILABLE);
    PublishResult r = sink().publish(KEY, WORK, collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertOnlyTheFinalObject(collection(2));
    // The dropped read is sent again at once by the JDK's HTTP transport (a request that got no
    // answer at all); each of the three refusals costs one wait, with the random draw fixed at 0.5
    // half its bound.
    assertEquals(
        2,
        server.requests().stream()
            .filter(q -> q.startsWith("GET") && q.contains(bucket + "/o/"))
            .filter(q -> !q.contains("_tmp"))
            .count());
    assertEquals(
        List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(50)), waits);
  }

  @Test
  void aCopyWhoseAnswerWasLostIsRecognisedByItsAttempt() throws Exception {
    // The copy lands, the answer does not; the retried copy meets its own object (412).
    server.inject(r -> r.contains("rewriteTo") && r.contains(bucket), Fault.DROP_AFTER);
    PublishResult r = sink().publish(KEY, WORK, collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertOnlyTheFinalObject(collection(2));
    assertEquals(1, waits.size());
  }

  @Test
  void aFinalObjectChangedByAnotherWriterIsReadAgainAndDecides() throws Exception {
    Storage other = client;
    BlobInfo info = BlobInfo.newBuilder(BlobId.of(bucket, FINAL)).build();
    // Another writer puts something else there between our read and our copy: we copy again.
    GcsTileSink racing =
        sink(
            step -> {
              if (step == GcsTileSink.Step.VERIFIED) {
                other.create(info, "stale".getBytes(StandardCharsets.UTF_8));
              }
            },
            GcsTileSink.RESUMABLE_ABOVE);
    assertEquals(Outcome.WRITTEN, racing.publish(KEY, WORK, collection(2), 2).outcome());
    assertOnlyTheFinalObject(collection(2));

    // Another writer publishes the very same tile in between: ours is not needed.
    GcsTileSink same =
        sink(
            step -> {
              if (step == GcsTileSink.Step.VERIFIED) {
                try {
                  sink().publish(KEY, WORK, collection(5), 5);
                } catch (TileDataException | IOException e) {
                  throw new IllegalStateException(e);
                }
              }
            },
            GcsTileSink.RESUMABLE_ABOVE);
    assertEquals(Outcome.UNCHANGED, same.publish(KEY, WORK, collection(5), 5).outcome());
    assertOnlyTheFinalObject(collection(5));
  }

  @Test
  void publishesOfOneTileAtOnceEndWithOneWholeVersion() throws Exception {
    List<byte[]> versions = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      versions.add(collection(i * 10));
    }
    ExecutorService pool = Executors.newFixedThreadPool(versions.size());
    try {
      for (int round = 0; round < 5; round++) {
        freshBucket();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<PublishResult>> all = new ArrayList<>();
        for (int i = 0; i < versions.size(); i++) {
          byte[] bytes = versions.get(i);
          long features = (i + 1) * 10L;
          GcsTileSink sink = sink();
          all.add(
              pool.submit(
                  () -> {
                    start.await();
                    return sink.publish(KEY, WORK, bytes, features);
                  }));
        }
        start.countDown();
        for (Future<PublishResult> f : all) {
          f.get();
        }
        StoredObject o = objects().get(FINAL);
        assertTrue(
            versions.stream().anyMatch(v -> Arrays.equals(v, o.data())),
            "round " + round + ": one whole version");
        assertEquals(Checksums.of(o.data()), o.metadata().get(GcsTileSink.CHECKSUM));
        assertEquals(List.of(FINAL), List.copyOf(objects().keySet()), "no temporary object");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aMissingBucketFailsTheTileAndPersistentUnavailabilityFailsTheBundle() {
    GcsTileSink missing =
        new GcsTileSink(
            client,
            spec("gs://no-such-bucket/tiles"),
            "run-1",
            new Retrier(RetryPolicy.DEFAULT, GcsSettings::isTransient, waits::add, () -> 0.5),
            StepListener.NONE,
            GcsTileSink.RESUMABLE_ABOVE);
    TileDataException e =
        assertThrows(TileDataException.class, () -> missing.publish(KEY, WORK, collection(1), 1));
    assertEquals("storage", e.errorClass());
    assertTrue(e.getMessage().contains("gs://no-such-bucket/tiles/roads/3/4/5.geojson"));

    for (int i = 0; i < 5; i++) {
      server.inject(r -> r.startsWith("GET") && r.contains(bucket + "/o/"), Fault.UNAVAILABLE);
    }
    IOException io =
        assertThrows(IOException.class, () -> sink().publish(KEY, WORK, collection(1), 1));
    assertTrue(io.getMessage().contains("kept failing"), io.getMessage());
    assertFalse(objects().containsKey(FINAL));
  }
}
