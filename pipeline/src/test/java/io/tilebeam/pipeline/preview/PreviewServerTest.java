package io.tilebeam.pipeline.preview;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tilebeam.codec.pmtiles.PmtilesWriter;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tilebeam serve}: ranges as RFC 9110 says (206 with Content-Range, the last n bytes, 416
 * past the end), a TileJSON per layer, an archive's tiles one by one, and nothing outside the
 * directory or hidden in it.
 */
class PreviewServerTest {

  @TempDir Path dir;
  private PreviewServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private byte[] data;

  @BeforeEach
  void start() throws Exception {
    data = new byte[1000];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    Files.createDirectories(dir.resolve("roads/0/0"));
    Files.write(dir.resolve("roads/0/0/0.mvt"), data);
    Files.writeString(dir.resolve(".hidden"), "secret");
    Files.writeString(dir.getParent().resolve("outside.txt"), "outside");
    byte[] tile = "tile bytes".getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = Files.newOutputStream(dir.resolve("land.pmtiles"))) {
      PmtilesWriter.write(
          List.of(new PmtilesWriter.Tile(1, 1, 0, tile.length, "sha256:x")),
          t -> tile,
          new PmtilesWriter.Info(1, 1, new double[] {-180, -85, 180, 85}, "{}"),
          out);
    }
    PreviewFiles.write(
        dir,
        List.of(
            new PreviewLayer(
                "roads", "vector", null, "mvt", 0, 0, List.of(-10.0, 40.0, 10.0, 50.0)),
            new PreviewLayer(
                "land",
                "vector",
                "land.pmtiles",
                "mvt",
                0,
                1,
                List.of(-180.0, -85.0, 180.0, 85.0))));
    server = PreviewServer.start(dir, "127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void rangesAreAnsweredAsRfc9110Says() throws Exception {
    HttpResponse<byte[]> whole = get("/roads/0/0/0.mvt");
    assertEquals(200, whole.statusCode());
    assertArrayEquals(data, whole.body());
    assertEquals("bytes", whole.headers().firstValue("Accept-Ranges").orElseThrow());

    HttpResponse<byte[]> part = get("/roads/0/0/0.mvt", "Range", "bytes=10-19");
    assertEquals(206, part.statusCode());
    assertEquals("bytes 10-19/1000", part.headers().firstValue("Content-Range").orElseThrow());
    assertArrayEquals(Arrays.copyOfRange(data, 10, 20), part.body());

    HttpResponse<byte[]> open = get("/roads/0/0/0.mvt", "Range", "bytes=990-");
    assertArrayEquals(Arrays.copyOfRange(data, 990, 1000), open.body());
    HttpResponse<byte[]> last = get("/roads/0/0/0.mvt", "Range", "bytes=-5");
    assertEquals("bytes 995-999/1000", last.headers().firstValue("Content-Range").orElseThrow());
    HttpResponse<byte[]> clipped = get("/roads/0/0/0.mvt", "Range", "bytes=998-5000");
    assertEquals("bytes 998-999/1000", clipped.headers().firstValue("Content-Range").orElseThrow());

    HttpResponse<byte[]> past = get("/roads/0/0/0.mvt", "Range", "bytes=1000-1001");
    assertEquals(416, past.statusCode());
    assertEquals("bytes */1000", past.headers().firstValue("Content-Range").orElseThrow());
  }

  @Test
  void eachLayerHasATileJsonOnTheHostAsked() throws Exception {
    JsonNode t = new ObjectMapper().readTree(get("/roads/tiles.json").body());
    assertEquals("3.0.0", t.path("tilejson").asText());
    assertEquals(
        "http://127.0.0.1:" + server.port() + "/roads/{z}/{x}/{y}.mvt",
        t.path("tiles").get(0).asText());
    assertEquals("roads", t.path("vector_layers").get(0).path("id").asText());
    assertEquals(-10.0, t.path("bounds").get(0).asDouble());
    assertEquals(404, get("/nothing/tiles.json").statusCode());
  }

  @Test
  void anArchivesTilesAreServedOneByOne() throws Exception {
    HttpResponse<byte[]> tile = get("/land/1/1/0.mvt");
    assertEquals(200, tile.statusCode());
    assertEquals("tile bytes", new String(tile.body(), StandardCharsets.UTF_8));
    assertEquals(204, get("/land/1/0/0.mvt").statusCode(), "a tile the archive does not hold");
    HttpResponse<byte[]> header = get("/land.pmtiles", "Range", "bytes=0-6");
    assertEquals("PMTiles", new String(header.body(), StandardCharsets.US_ASCII));
  }

  @Test
  void nothingOutsideTheDirectoryOrHiddenInItIsServed() throws Exception {
    for (String path :
        List.of("/../outside.txt", "/%2e%2e/outside.txt", "/.hidden", "/roads/../../outside.txt")) {
      assertEquals(404, get(path).statusCode(), path);
    }
    HttpResponse<byte[]> root = get("/");
    assertEquals(302, root.statusCode());
    assertEquals("/preview.html", root.headers().firstValue("Location").orElseThrow());
    HttpResponse<String> post =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/preview.html"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
    assertTrue(
        new String(get("/preview.html").body(), StandardCharsets.UTF_8).contains("maplibregl"));
  }
}
