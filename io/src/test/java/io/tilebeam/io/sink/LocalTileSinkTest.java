package io.tilebeam.io.sink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tilebeam.io.format.GeoJsonFormat;
import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import io.tilebeam.transforms.tiling.TileId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTileSinkTest {

  @TempDir Path root;

  private static final TileWork WORK =
      new TileWork(
          "ns",
          1,
          "roads",
          "WebMercatorQuad",
          TileId.of(3, 4, 5),
          "sha256:aa",
          "OGC:CRS84",
          "EPSG:3857",
          "geojson",
          "{}");

  private static byte[] collection(int features) {
    StringBuilder s = new StringBuilder("{\"type\":\"FeatureCollection\",\"features\":[");
    for (int i = 0; i < features; i++) {
      s.append(i > 0 ? "," : "")
          .append("{\"type\":\"Feature\",\"geometry\":null,\"properties\":{}}");
    }
    return s.append("]}").toString().getBytes(StandardCharsets.UTF_8);
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
}
