package io.tilebeam.pipeline.preview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tilebeam.codec.pmtiles.PmtilesReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tilebeam serve}: an output directory over HTTP, for its map preview and for any client of
 * tiles. Files are served with single-range requests ({@code Range: bytes=…}, answered 206 with
 * {@code Content-Range}; PMTiles readers need them), {@code /<layer>/tiles.json} is a TileJSON
 * 3.0.0 of each layer in {@code preview.json}, and the tiles of a layer packed into an archive are
 * also served one by one at {@code /<layer>/<z>/<x>/<y>.<ext>}, read from the archive. Only files
 * below the directory are served, never hidden ones; only GET and HEAD are answered.
 */
public final class PreviewServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
  private static final Pattern TILE = Pattern.compile("([^/]+)/(\\d+)/(\\d+)/(\\d+)\\.([a-z]+)");
  private static final Map<String, String> TYPES =
      Map.ofEntries(
          Map.entry("html", "text/html; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("json", "application/json"),
          Map.entry("txt", "text/plain; charset=utf-8"),
          Map.entry("mvt", "application/vnd.mapbox-vector-tile"),
          Map.entry("png", "image/png"),
          Map.entry("tif", "image/tiff"),
          Map.entry("pmtiles", "application/vnd.pmtiles"),
          Map.entry("geojson", "application/geo+json"),
          Map.entry("fgb", "application/octet-stream"));

  private final Path root;
  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(8);

  private PreviewServer(Path root, HttpServer server) {
    this.root = root;
    this.server = server;
  }

  /**
   * Serves {@code dir} on {@code host}:{@code port} (port 0: any free one) until closed.
   *
   * @throws IOException when the port cannot be bound
   */
  public static PreviewServer start(Path dir, String host, int port) throws IOException {
    Path root = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new IllegalArgumentException(dir + " is not a directory");
    }
    HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 64);
    PreviewServer s = new PreviewServer(root, http);
    http.createContext("/", s::handle);
    http.setExecutor(s.threads);
    http.start();
    return s;
  }

  /** The port served on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The page's URL. */
  public String pageUrl() {
    String host = server.getAddress().getHostString();
    return "http://"
        + (host.contains(":") ? "[" + host + "]" : host)
        + ":"
        + port()
        + "/"
        + PreviewFiles.PAGE;
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String method = x.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        x.getResponseHeaders().set("Allow", "GET, HEAD");
        send(x, 405, "text/plain", "only GET and HEAD\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      x.getResponseHeaders().set("Access-Control-Allow-Origin", "*");
      x.getResponseHeaders().set("Cache-Control", "no-cache");
      String path = URLDecoder.decode(x.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
      if (path.equals("/")) {
        x.getResponseHeaders().set("Location", "/" + PreviewFiles.PAGE);
        send(x, 302, "text/plain", new byte[0]);
        return;
      }
      String relative = path.substring(1);
      if (!safe(relative)) {
        send(x, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      Path file = root.resolve(relative).normalize();
      if (Files.isRegularFile(file)) {
        serveFile(x, file);
        return;
      }
      if (relative.endsWith("/tiles.json")) {
        ObjectNode tileJson = tileJson(x, relative.substring(0, relative.length() - 11));
        if (tileJson != null) {
          send(x, 200, TYPES.get("json"), JSON.writeValueAsBytes(tileJson));
          return;
        }
      }
      Matcher tile = TILE.matcher(relative);
      if (tile.matches() && serveArchiveTile(x, tile)) {
        return;
      }
      send(x, 404, "text/plain", "not found\n".getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      // The client went away, or a file changed under us: this request ends, the server goes on.
    }
  }

  /** A path below the root that names no hidden file or directory and never steps up. */
  private boolean safe(String relative) {
    if (relative.isEmpty() || relative.startsWith("/") || relative.contains("\\")) {
      return false;
    }
    for (String segment : relative.split("/", -1)) {
      if (segment.isEmpty() || segment.startsWith(".")) {
        return false;
      }
    }
    return root.resolve(relative).normalize().startsWith(root);
  }

  private void serveFile(HttpExchange x, Path file) throws IOException {
    long size = Files.size(file);
    String name = file.getFileName().toString();
    String type =
        TYPES.getOrDefault(
            name.substring(name.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT),
            "application/octet-stream");
    x.getResponseHeaders().set("Accept-Ranges", "bytes");
    long from = 0;
    long to = size - 1;
    int status = 200;
    String range = x.getRequestHeaders().getFirst("Range");
    if (range != null) {
      Matcher m = RANGE.matcher(range.strip());
      if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
        range = null; // several ranges, or another unit: the whole file, as RFC 9110 allows
      } else if (m.group(1).isEmpty()) {
        from = Math.max(0, size - Long.parseLong(m.group(2))); // the last n bytes
      } else {
        from = Long.parseLong(m.group(1));
        to = m.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(m.group(2)));
      }
      if (range != null) {
        if (from >= size || from > to) {
          x.getResponseHeaders().set("Content-Range", "bytes */" + size);
          send(x, 416, "text/plain", new byte[0]);
          return;
        }
        status = 206;
        x.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + size);
      }
    }
    long length = to - from + 1;
    x.getResponseHeaders().set("Content-Type", type);
    if (x.getRequestMethod().equals("HEAD")) {
      x.getResponseHeaders().set("Content-Length", Long.toString(length));
      x.sendResponseHeaders(status, -1);
      return;
    }
    x.sendResponseHeaders(status, length == 0 ? -1 : length);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        OutputStream out = x.getResponseBody()) {
      channel.position(from);
      InputStream in = Channels.newInputStream(channel);
      byte[] buf = new byte[64 << 10];
      for (long left = length; left > 0; ) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          break;
        }
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  /** The layer's entry in {@code preview.json}, or null. */
  private JsonNode layer(String name) throws IOException {
    Path config = root.resolve(PreviewFiles.CONFIG);
    if (!Files.isRegularFile(config)) {
      return null;
    }
    for (JsonNode l : JSON.readTree(config.toFile()).path("layers")) {
      if (l.path("name").asText().equals(name)) {
        return l;
      }
    }
    return null;
  }

  /** TileJSON 3.0.0 of a layer, its tile URLs on the host the client asked. */
  private ObjectNode tileJson(HttpExchange x, String name) throws IOException {
    JsonNode l = layer(name);
    if (l == null) {
      return null;
    }
    String host = x.getRequestHeaders().getFirst("Host");
    String origin = "http://" + (host == null ? "127.0.0.1:" + port() : host);
    ObjectNode t = JSON.createObjectNode();
    t.put("tilejson", "3.0.0");
    t.put("name", name);
    t.putArray("tiles").add(origin + "/" + l.path("tiles").asText());
    t.put("minzoom", l.path("minzoom").asInt());
    t.put("maxzoom", l.path("maxzoom").asInt());
    t.set("bounds", l.path("bounds"));
    String kind = l.path("kind").asText();
    if (kind.equals("vector")) {
      ArrayNode layers = t.putArray("vector_layers");
      layers.addObject().put("id", name).putObject("fields");
    } else if (!kind.equals("raster")) {
      t.put("encoding", kind.equals("terrarium") ? "terrarium" : "mapbox");
    }
    return t;
  }

  /** A tile of a layer packed into an archive, read from it; false when the layer has none. */
  private boolean serveArchiveTile(HttpExchange x, Matcher tile) throws IOException {
    JsonNode l = layer(tile.group(1));
    if (l == null || !l.hasNonNull("archive")) {
      return false;
    }
    Path archive = root.resolve(l.path("archive").asText()).normalize();
    if (!archive.startsWith(root) || !Files.isRegularFile(archive)) {
      return false;
    }
    try (PmtilesReader reader = PmtilesReader.open(archive)) {
      byte[] bytes =
          reader.tile(
              Integer.parseInt(tile.group(2)),
              Long.parseLong(tile.group(3)),
              Long.parseLong(tile.group(4)));
      if (bytes == null) {
        send(x, 204, TYPES.getOrDefault(tile.group(5), "application/octet-stream"), new byte[0]);
        return true;
      }
      if (reader.header().tileCompression() == 2) {
        x.getResponseHeaders().set("Content-Encoding", "gzip");
      }
      send(x, 200, TYPES.getOrDefault(tile.group(5), "application/octet-stream"), bytes);
      return true;
    }
  }

  private static void send(HttpExchange x, int status, String type, byte[] body)
      throws IOException {
    x.getResponseHeaders().set("Content-Type", type);
    boolean noBody = body.length == 0 || x.getRequestMethod().equals("HEAD") || status == 204;
    if (x.getRequestMethod().equals("HEAD")) {
      x.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
    }
    x.sendResponseHeaders(status, noBody ? -1 : body.length);
    if (!noBody) {
      try (OutputStream out = x.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
