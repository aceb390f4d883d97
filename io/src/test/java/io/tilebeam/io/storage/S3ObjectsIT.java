package io.tilebeam.io.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.storage.S3FaultProxy.Fault;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The S3 calls tilebeam makes, against S3Mock on loopback (and the fault proxy in front of it): the
 * conditions of a write hold, checksums are sent and checked, ranged reads are pinned to a version,
 * transient faults are retried and refusals are not.
 */
class S3ObjectsIT {

  private static S3MockServer server;
  private static S3FaultProxy proxy;

  @TempDir Path dir;

  @BeforeAll
  static void start() throws Exception {
    S3MockServer.useTestCredentials();
    server = S3MockServer.start("objects");
    proxy = S3FaultProxy.start(server.port());
  }

  @AfterAll
  static void stop() throws Exception {
    proxy.close();
    server.close();
  }

  private static S3Objects direct() {
    return S3Objects.open(server.settings(), "objects");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aNewKeyIsWrittenOnceAndReplacedOnlyOverTheVersionRead() throws Exception {
    try (S3Objects s3 = direct()) {
      assertNull(s3.head("a/new"));
      String etag = s3.put("a/new", bytes("one"), "text/plain", Map.of("work_key", "k1"), null);
      S3Objects.Head head = s3.head("a/new");
      assertEquals(etag, head.etag());
      assertEquals(3, head.size());
      assertEquals("k1", head.meta("work_key"));
      // Absent was the condition; it is there now.
      assertThrows(
          S3Objects.Conflict.class,
          () -> s3.put("a/new", bytes("two"), "text/plain", Map.of(), null));
      String second = s3.put("a/new", bytes("two"), "text/plain", Map.of(), etag);
      assertNotEquals(etag, second);
      // The version read before is gone.
      assertThrows(
          S3Objects.Conflict.class,
          () -> s3.put("a/new", bytes("three"), "text/plain", Map.of(), etag));
      assertArrayEquals(bytes("two"), s3.read("a/new").bytes());
    }
  }

  /**
   * The MD5 sent with a write lets the store refuse bytes damaged on the way; S3 names that refusal
   * {@code BadDigest} and tilebeam sends them again, S3Mock names it {@code BadRequest} (a
   * refusal). Either way nothing damaged is stored.
   */
  @Test
  void bytesDamagedOnTheWayAreRefusedByTheStore() throws Exception {
    try (S3Objects s3 = S3Objects.open(S3MockServer.settings(proxy.endpoint()), "objects")) {
      proxy.inject(r -> r.startsWith("PUT /objects/damaged"), Fault.CORRUPT_BODY);
      SdkException e =
          assertThrows(
              SdkException.class,
              () -> s3.put("damaged", bytes("every byte counts"), "text/plain", Map.of(), null));
      assertEquals(400, S3Settings.status(e), e.getMessage());
      assertNull(s3.head("damaged"));
      s3.put("damaged", bytes("every byte counts"), "text/plain", Map.of(), null);
      assertArrayEquals(bytes("every byte counts"), s3.read("damaged").bytes());
    }
    var badDigest =
        software.amazon.awssdk.services.s3.model.S3Exception.builder()
            .statusCode(400)
            .awsErrorDetails(
                software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
                    .errorCode("BadDigest")
                    .build())
            .build();
    assertTrue(S3Settings.isTransient(badDigest));
  }

  @Test
  void rangedReadsArePinnedToTheVersionPlanned() throws Exception {
    try (S3Objects s3 = direct()) {
      String etag = s3.put("pinned", bytes("0123456789"), "text/plain", Map.of(), null);
      assertArrayEquals(bytes("345"), s3.readRange("pinned", etag, 3, 3));
      s3.put("pinned", bytes("abcdefghij"), "text/plain", Map.of(), etag);
      SdkException e = assertThrows(SdkException.class, () -> s3.readRange("pinned", etag, 3, 3));
      assertEquals(412, S3Settings.status(e));
    }
  }

  @Test
  void aLargeFileGoesUpInPartsAndAppearsWholeUnderItsCondition() throws Exception {
    byte[] data = new byte[12 << 20];
    new Random(7).nextBytes(data);
    Path file = Files.write(dir.resolve("big"), data);
    try (S3Objects s3 = direct()) {
      String etag =
          s3.putMultipart(
              "big.pmtiles", file, "application/vnd.pmtiles", Map.of("k", "v"), null, 5 << 20);
      assertEquals(etag, s3.head("big.pmtiles").etag());
      assertArrayEquals(data, s3.read("big.pmtiles").bytes());
      assertThrows(
          S3Objects.Conflict.class,
          () ->
              s3.putMultipart(
                  "big.pmtiles", file, "application/vnd.pmtiles", Map.of(), null, 5 << 20));
      assertEquals(0, s3.abortUploadsBefore("", Instant.now().plusSeconds(60)));
    }
  }

  @Test
  void transientFaultsAreRetriedAndALostAnswerIsAConflictOverOurOwnWrite() throws Exception {
    try (S3Objects s3 = S3Objects.open(S3MockServer.settings(proxy.endpoint()), "objects")) {
      proxy.inject(r -> r.startsWith("PUT /objects/flaky"), Fault.SLOW_DOWN);
      proxy.inject(r -> r.startsWith("PUT /objects/flaky"), Fault.TOO_MANY);
      proxy.inject(r -> r.startsWith("PUT /objects/flaky"), Fault.RESET_BEFORE);
      proxy.inject(r -> r.startsWith("PUT /objects/flaky"), Fault.CUT_BODY);
      s3.put("flaky", bytes("whole"), "text/plain", Map.of(), null);
      assertArrayEquals(bytes("whole"), s3.read("flaky").bytes());

      proxy.inject(r -> r.startsWith("PUT /objects/lost"), Fault.RESET_AFTER);
      assertThrows(
          S3Objects.Conflict.class,
          () -> s3.put("lost", bytes("landed"), "text/plain", Map.of("attempt", "a1"), null));
      assertEquals("a1", s3.head("lost").meta("attempt"));
    }
  }

  @Test
  void refusalsAreNotRetried() throws Exception {
    try (S3Objects s3 = S3Objects.open(S3MockServer.settings(proxy.endpoint()), "no-such-bucket")) {
      assertFalse(s3.bucketExists());
      int before = proxy.requests();
      SdkException e =
          assertThrows(
              SdkException.class, () -> s3.put("x", bytes("x"), "text/plain", Map.of(), null));
      assertEquals(404, S3Settings.status(e));
      assertEquals(before + 1, proxy.requests());
    }
    proxy.requireAccessKey("someone-else");
    try (S3Objects s3 = S3Objects.open(S3MockServer.settings(proxy.endpoint()), "objects")) {
      SdkException e = assertThrows(SdkException.class, s3::bucketExists);
      assertEquals(403, S3Settings.status(e));
      assertTrue(e.getMessage().contains("InvalidAccessKeyId") || e.getMessage().contains("403"));
    } finally {
      proxy.requireAccessKey(null);
    }
  }
}
