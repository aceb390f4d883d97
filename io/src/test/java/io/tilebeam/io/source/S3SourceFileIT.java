package io.tilebeam.io.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.io.storage.S3MockServer;
import io.tilebeam.io.storage.Stores;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3 source is the version read at planning: its ETag is its identity, every ranged read is
 * conditional on it, and an object replaced since fails the read instead of mixing versions.
 */
class S3SourceFileIT {

  private static S3MockServer server;
  private static S3Client admin;

  @BeforeAll
  static void start() throws IOException {
    S3MockServer.useTestCredentials();
    server = S3MockServer.start("data");
    admin = server.settings().open();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  private static void put(String key, String text) {
    admin.putObject(b -> b.bucket("data").key(key), RequestBody.fromString(text));
  }

  @Test
  void readsArePinnedToTheVersionPlanned() throws Exception {
    put("a/source.geojsonseq", "0123456789");
    SourceFile file =
        SourceFile.resolve("s3://data/a/source.geojsonseq", Stores.of(server.settings()));
    assertEquals(10, file.size());
    assertTrue(file.identity().startsWith("s3:"), file.identity());
    assertTrue(file.identity().endsWith(":10"), file.identity());
    assertArrayEquals("2345".getBytes(StandardCharsets.UTF_8), file.read(2, 4));
    try (var in = file.open(7)) {
      assertArrayEquals("789".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
    }
    assertThrows(EOFException.class, () -> file.read(8, 4));
    SourceFile same =
        SourceFile.resolve("s3://data/a/source.geojsonseq", Stores.of(server.settings()));
    assertEquals(file.identity(), same.identity(), "the same bytes, the same identity");

    put("a/source.geojsonseq", "abcdefghij");
    IOException e = assertThrows(IOException.class, () -> file.read(2, 4));
    assertTrue(e.getMessage().contains("replaced after the job was planned"), e.getMessage());
    SourceFile replaced =
        SourceFile.resolve("s3://data/a/source.geojsonseq", Stores.of(server.settings()));
    assertTrue(!replaced.identity().equals(file.identity()), "new bytes, new identity");
  }

  @Test
  void aMissingObjectOrBucketIsTheUrisFault() {
    for (String uri : new String[] {"s3://data/none.fgb", "s3://no-bucket/x.fgb", "s3://data"}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> SourceFile.resolve(uri, Stores.of(server.settings())));
      assertTrue(
          e.getMessage().contains("no such object")
              || e.getMessage().contains("(404)")
              || e.getMessage().contains("s3://bucket/key"),
          uri + ": " + e.getMessage());
    }
  }
}
