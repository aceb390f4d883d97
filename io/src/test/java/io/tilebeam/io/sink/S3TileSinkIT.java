package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.io.retry.Retrier;
import io.tilebeam.io.retry.RetryPolicy;
import io.tilebeam.io.storage.Checksums;
import io.tilebeam.io.storage.S3FaultProxy;
import io.tilebeam.io.storage.S3FaultProxy.Fault;
import io.tilebeam.io.storage.S3MockServer;
import io.tilebeam.io.storage.S3Objects;
import io.tilebeam.io.storage.S3Settings;
import io.tilebeam.io.storage.Stores;
import io.tilebeam.transforms.crs.CrsRef;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.outcome.PublishResult;
import io.tilebeam.transforms.outcome.PublishResult.Outcome;
import io.tilebeam.transforms.outcome.TileDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The S3 sink against a real S3-compatible server (S3Mock on loopback) with the fault proxy in
 * front of it: the same suite as the GCS sink's — published whole with metadata, unchanged on a
 * rerun, stopped at every step and finished by the rerun, transient faults retried with jittered
 * backoff, a lost answer recognised, concurrent writers ending with one whole version, refusals
 * failing the tile at once — plus archives uploaded in parts and dead letters kept by conditional
 * writes.
 */
class S3TileSinkIT {

  private static final TileWork WORK = SinkTestTiles.WORK;
  private static final WorkKey KEY = WorkKey.of(WORK);
  private static final String FINAL = "tiles/roads/3/4/5.geojson";

  private static S3MockServer server;
  private static S3FaultProxy proxy;
  private static S3Client admin;
  private static int buckets;
  private String bucket;
  private final List<Duration> waits = new ArrayList<>();

  @TempDir Path dir;

  @BeforeAll
  static void start() throws IOException {
    S3MockServer.useTestCredentials();
    server = S3MockServer.start();
    proxy = S3FaultProxy.start(server.port());
    admin = server.settings().open();
  }

  @AfterAll
  static void stop() throws IOException {
    admin.close();
    proxy.close();
    server.close();
  }

  @BeforeEach
  void freshBucket() {
    bucket = "bucket-" + ++buckets;
    admin.createBucket(b -> b.bucket(bucket));
  }

  private static S3Settings settings() {
    return S3MockServer.settings(proxy.endpoint());
  }

  private PublishSpec spec(String uri) {
    return new PublishSpec(
        OutputLocation.parse(uri, "geojson", null),
        new GeoJsonFormat(),
        CrsRef.of("EPSG:3857"),
        Stores.of(settings()));
  }

  private S3Objects objects(String name) {
    Retrier retrier =
        new Retrier(
            new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(1)),
            S3Settings::isTransient,
            waits::add,
            () -> 0.5);
    return new S3Objects(settings().open(), name, retrier);
  }

  private S3TileSink sink(StepListener steps) {
    return new S3TileSink(spec("s3://" + bucket + "/tiles"), objects(bucket), steps);
  }

  private S3TileSink sink() {
    return sink(StepListener.NONE);
  }

  private List<String> keys() {
    return admin.listObjectsV2(b -> b.bucket(bucket)).contents().stream()
        .map(S3Object::key)
        .toList();
  }

  private byte[] bytes(String key) {
    return admin.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
  }

  private void assertOnlyTheFinalObject(byte[] expected) {
    assertEquals(List.of(FINAL), keys());
    assertArrayEquals(expected, bytes(FINAL));
    var head = admin.headObject(b -> b.bucket(bucket).key(FINAL));
    assertEquals(KEY.value(), head.metadata().get(GcsTileSink.WORK_KEY));
    assertEquals(Checksums.of(expected), head.metadata().get(GcsTileSink.CHECKSUM));
  }

  @Test
  void publishesTheFinalObjectInOneConditionalWriteWithMetadata() throws Exception {
    int before = proxy.requests();
    PublishResult r = sink().publish(KEY, WORK, SinkTestTiles.collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertEquals("s3://" + bucket + "/" + FINAL, r.uri());
    assertOnlyTheFinalObject(SinkTestTiles.collection(2));
    List<String> sent = proxy.requestLines().subList(before, proxy.requests());
    assertEquals(2, sent.size(), "one HEAD, one PUT: " + sent);
    assertTrue(sent.get(0).startsWith("HEAD /" + bucket + "/" + FINAL), sent.get(0));
    assertTrue(sent.get(1).startsWith("PUT /" + bucket + "/" + FINAL), sent.get(1));
  }

  @Test
  void theSameTileAgainIsLeftUnchangedAndNewBytesReplaceIt() throws Exception {
    sink().publish(KEY, WORK, SinkTestTiles.collection(2), 2);
    assertEquals(
        Outcome.UNCHANGED, sink().publish(KEY, WORK, SinkTestTiles.collection(2), 2).outcome());
    assertEquals(
        Outcome.WRITTEN, sink().publish(KEY, WORK, SinkTestTiles.collection(3), 3).outcome());
    assertOnlyTheFinalObject(SinkTestTiles.collection(3));
  }

  @Test
  void bytesThatDoNotParseBackFailTheTileBeforeAnyRequest() {
    int before = proxy.requests();
    TileDataException e =
        assertThrows(
            TileDataException.class,
            () -> sink().publish(KEY, WORK, "{\"type\":\"Feat".getBytes(), 1));
    assertEquals("encode", e.errorClass());
    assertEquals(before, proxy.requests());
    assertEquals(List.of(), keys());
  }

  /**
   * A process that dies at any step leaves the old tile or the new one, whole, and nothing else;
   * the rerun finishes the publish (or finds it done).
   */
  @ParameterizedTest
  @EnumSource(S3TileSink.Step.class)
  void aPublishStoppedAtAnyStepLeavesAWholeTileAndTheRerunFinishesIt(S3TileSink.Step stop)
      throws Exception {
    for (boolean older : new boolean[] {false, true}) {
      freshBucket();
      byte[] old = SinkTestTiles.collection(1);
      byte[] fresh = SinkTestTiles.collection(3);
      if (older) {
        sink().publish(KEY, WORK, old, 1);
      }
      S3TileSink dying = sink(Crash.at(stop));
      assertThrows(Crash.class, () -> dying.publish(KEY, WORK, fresh, 3));
      boolean written = stop == S3TileSink.Step.WRITTEN;
      if (written) {
        assertArrayEquals(fresh, bytes(FINAL), stop + ": the new tile, whole");
      } else if (older) {
        assertArrayEquals(old, bytes(FINAL), stop + ": the old tile, untouched");
      } else {
        assertEquals(List.of(), keys(), stop + ": no tile yet");
      }
      PublishResult rerun = sink().publish(KEY, WORK, fresh, 3);
      assertEquals(written ? Outcome.UNCHANGED : Outcome.WRITTEN, rerun.outcome(), stop.name());
      assertOnlyTheFinalObject(fresh);
    }
  }

  /** A client killed half-way through sending the bytes leaves no object, and no part of one. */
  @Test
  void anUploadCutOffHalfWayLeavesNothingAndIsSentAgain() throws Exception {
    byte[] old = SinkTestTiles.collection(1);
    sink().publish(KEY, WORK, old, 1);
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/"), Fault.CUT_BODY);
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/"), Fault.CUT_BODY);
    byte[] fresh = SinkTestTiles.collection(40);
    assertEquals(Outcome.WRITTEN, sink().publish(KEY, WORK, fresh, 40).outcome());
    assertOnlyTheFinalObject(fresh);
    assertEquals(
        List.of(Duration.ofMillis(50), Duration.ofMillis(100)), waits, "one wait per cut upload");
  }

  @Test
  void transientErrorsAndResetsAreRetriedWithJitteredBackoff() throws Exception {
    proxy.inject(r -> r.startsWith("HEAD /" + bucket + "/"), Fault.RESET_BEFORE);
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/"), Fault.SLOW_DOWN);
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/"), Fault.TOO_MANY);
    PublishResult r = sink().publish(KEY, WORK, SinkTestTiles.collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertOnlyTheFinalObject(SinkTestTiles.collection(2));
    // Full jitter with the random draw fixed at 0.5, per call: the HEAD waits half of 100 ms, the
    // PUT half of 100 ms, then half of 200 ms.
    assertEquals(
        List.of(Duration.ofMillis(50), Duration.ofMillis(50), Duration.ofMillis(100)), waits);
  }

  @Test
  void aWriteWhoseAnswerWasLostIsRecognisedByItsAttempt() throws Exception {
    // The PUT lands, the answer does not; the retried PUT meets its own object (412).
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/"), Fault.RESET_AFTER);
    PublishResult r = sink().publish(KEY, WORK, SinkTestTiles.collection(2), 2);
    assertEquals(Outcome.WRITTEN, r.outcome());
    assertOnlyTheFinalObject(SinkTestTiles.collection(2));
  }

  @Test
  void publishesOfOneTileAtOnceEndWithOneWholeVersion() throws Exception {
    List<byte[]> versions = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      versions.add(SinkTestTiles.collection(i * 10));
    }
    ExecutorService pool = Executors.newFixedThreadPool(versions.size());
    try {
      for (int round = 0; round < 4; round++) {
        freshBucket();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<PublishResult>> all = new ArrayList<>();
        for (int i = 0; i < versions.size(); i++) {
          byte[] bytes = versions.get(i);
          long features = (i + 1) * 10L;
          S3TileSink sink = sink();
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
        byte[] held = bytes(FINAL);
        assertTrue(
            versions.stream().anyMatch(v -> Arrays.equals(v, held)),
            "round " + round + ": one whole version");
        var head = admin.headObject(b -> b.bucket(bucket).key(FINAL));
        assertEquals(Checksums.of(held), head.metadata().get(GcsTileSink.CHECKSUM));
        assertEquals(List.of(FINAL), keys());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void refusalsFailTheTileAtOnceAndPersistentUnavailabilityFailsTheBundle() {
    S3TileSink missing =
        new S3TileSink(
            spec("s3://no-such-bucket/tiles"), objects("no-such-bucket"), StepListener.NONE);
    TileDataException e =
        assertThrows(
            TileDataException.class,
            () -> missing.publish(KEY, WORK, SinkTestTiles.collection(1), 1));
    assertEquals("storage", e.errorClass());
    assertTrue(e.getMessage().contains("s3://no-such-bucket/tiles/roads/3/4/5.geojson"));
    assertTrue(e.getMessage().contains("(404)"), e.getMessage());
    assertEquals(List.of(), waits, "a refusal is not retried");

    proxy.requireAccessKey("another-key");
    try {
      TileDataException denied =
          assertThrows(
              TileDataException.class,
              () -> sink().publish(KEY, WORK, SinkTestTiles.collection(1), 1));
      assertTrue(denied.getMessage().contains("(403)"), denied.getMessage());
    } finally {
      proxy.requireAccessKey(null);
    }

    for (int i = 0; i < 5; i++) {
      proxy.inject(r -> r.startsWith("HEAD /" + bucket + "/"), Fault.SLOW_DOWN);
    }
    IOException io =
        assertThrows(
            IOException.class, () -> sink().publish(KEY, WORK, SinkTestTiles.collection(1), 1));
    assertTrue(io.getMessage().contains("kept failing"), io.getMessage());
    assertFalse(keys().contains(FINAL));
  }

  @Test
  void anArchiveAboveTheThresholdGoesUpInPartsUnderItsCondition() throws Exception {
    ArchiveSpec spec =
        new ArchiveSpec(
            OutputLocation.parse("s3://" + bucket + "/out", "pmtiles-staging", null),
            "land",
            new GeoJsonFormat(),
            0,
            3,
            Stores.of(settings()));
    byte[] data = new byte[11 << 20];
    new Random(3).nextBytes(data);
    for (String packKey : List.of("sha256:one", "sha256:two")) {
      Path archive = Files.write(dir.resolve("a.pmtiles"), data);
      try (S3ArchiveTarget target =
          new S3ArchiveTarget(spec, objects(bucket), StepListener.NONE, 5 << 20, 5 << 20)) {
        assertEquals(packKey.equals("sha256:one") ? null : "sha256:one", target.publishedKey());
        assertEquals(
            ArchivePack.Outcome.WRITTEN, target.publish(archive, packKey, "sha256:whatever"));
        assertFalse(Files.exists(archive), "the temporary file is gone");
      }
      assertArrayEquals(data, bytes("out/land.pmtiles"));
      data[0]++;
    }
    assertTrue(
        proxy.requestLines().stream().anyMatch(l -> l.contains("land.pmtiles?uploadId=")),
        "uploaded in parts");
  }

  /**
   * What a pack killed during its upload in parts leaves: an unfinished upload, never an object;
   * {@code reap} aborts it once it is older than its cut-off, not before.
   */
  @Test
  void anUploadInPartsCutOffByAKillIsNeverVisibleAndReapAbortsIt() throws Exception {
    String key = "out/land.pmtiles";
    String upload = admin.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
    admin.uploadPart(
        b -> b.bucket(bucket).key(key).uploadId(upload).partNumber(1),
        software.amazon.awssdk.core.sync.RequestBody.fromBytes(new byte[6 << 20]));
    assertEquals(List.of(), keys(), "no object until the upload completes");
    PublishSpec spec = spec("s3://" + bucket + "/out");
    try (PublishedTiles published = new PublishedTiles()) {
      assertEquals(0, published.abortOrphanUploads(spec, java.time.Instant.now().minusSeconds(60)));
      assertEquals(1, published.abortOrphanUploads(spec, java.time.Instant.now().plusSeconds(60)));
    }
    assertEquals(List.of(), admin.listMultipartUploads(b -> b.bucket(bucket)).uploads(), "aborted");
  }

  @Test
  void deadLettersAreMergedByConditionalWrites() throws Exception {
    PublishSpec spec = spec("s3://" + bucket + "/tiles");
    assertEquals(
        2,
        RemoteDeadLetters.mergeIntoS3(
            spec, "roads", "features.jsonl", new java.util.TreeSet<>(List.of("b", "a"))));
    // A writer that read before this one wrote conflicts once, reads again and merges.
    proxy.inject(r -> r.startsWith("PUT /" + bucket + "/tiles/_failed/"), Fault.RESET_AFTER);
    assertEquals(
        3,
        RemoteDeadLetters.mergeIntoS3(
            spec, "roads", "features.jsonl", new java.util.TreeSet<>(List.of("c", "a"))));
    assertEquals("a\nb\nc\n", new String(bytes("tiles/_failed/roads/features.jsonl"), "UTF-8"));
  }
}
