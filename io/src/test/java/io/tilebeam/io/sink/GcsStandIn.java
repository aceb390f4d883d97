package io.tilebeam.io.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;

/**
 * An in-process HTTP server speaking the part of the Google Cloud Storage JSON API that {@link
 * GcsTileSink} uses, for tests: no GCS emulator can be installed here.
 *
 * <p>It implements bucket get; object get (metadata and {@code alt=media}), list with prefix and
 * pages, delete, multipart, media and resumable uploads, rewrite and copy. Every object has a
 * generation from one increasing counter and a metageneration; the {@code ifGenerationMatch},
 * {@code ifGenerationNotMatch}, {@code ifMetagenerationMatch} and {@code ifSourceGenerationMatch}
 * preconditions answer 412 when they fail, {@code ifGenerationMatch=0} meaning "does not exist".
 * Uploads that state an MD5 or CRC32C are checked against the bytes (400 when they differ). All
 * changes are made under one lock, so preconditions are linearisable as in the real service.
 *
 * <p>Faults can be injected for requests matching a predicate: an HTTP error status, or a dropped
 * connection before or after the request took effect (the response is cut short).
 */
public final class GcsStandIn implements AutoCloseable {

  /** A fault to inject. */
  public enum Fault {
    /** The request is not applied and the connection is closed before any response. */
    DROP_BEFORE,
    /** The request is applied, then the connection is dropped mid-response. */
    DROP_AFTER,
    /** The request is not applied and answered 503. */
    UNAVAILABLE,
    /** The request is not applied and answered 429. */
    TOO_MANY_REQUESTS,
    /** The request is not applied and answered 403: a permanent refusal. */
    FORBIDDEN
  }

  /** One stored object version. */
  public record StoredObject(
      String bucket,
      String name,
      byte[] data,
      long generation,
      long metageneration,
      Map<String, String> metadata,
      String contentType,
      Instant created) {}

  private record Upload(String bucket, ObjectNode resource, Map<String, String> query) {}

  private record Injected(Predicate<String> request, Fault fault) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The request's Range header, carried with the query parameters (no parameter has a space). */
  private static final String RANGE_HEADER = "header Range";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(16);
  private final Map<String, TreeMap<String, StoredObject>> buckets = new HashMap<>();
  private final Map<String, Upload> uploads = new HashMap<>();
  private final Map<String, ByteArrayOutputStream> uploadBytes = new HashMap<>();
  private final AtomicLong generations = new AtomicLong(1_700_000_000_000_000L);
  private final AtomicLong uploadIds = new AtomicLong();
  private final ConcurrentLinkedQueue<Injected> faults = new ConcurrentLinkedQueue<>();
  private static final Fault[] TRANSIENT = {
    Fault.DROP_BEFORE, Fault.DROP_AFTER, Fault.UNAVAILABLE, Fault.TOO_MANY_REQUESTS
  };
  private volatile Random random;
  private volatile double faultRate;
  private final java.util.concurrent.atomic.AtomicInteger randomFaults =
      new java.util.concurrent.atomic.AtomicInteger();
  private final ConcurrentLinkedQueue<String> requests = new ConcurrentLinkedQueue<>();

  private GcsStandIn(HttpServer server) {
    this.server = server;
  }

  /** Starts a server on a free loopback port. */
  public static GcsStandIn start() throws IOException {
    // Without TCP_NODELAY each small response waits out the client's delayed ACK (about 40 ms).
    // Read once, when the JDK's server classes load, so it must be set before the first server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    GcsStandIn s = new GcsStandIn(server);
    server.setExecutor(s.executor);
    server.createContext("/", s::handle);
    server.start();
    return s;
  }

  /**
   * Runs a stand-in until killed, for trying tilebeam by hand: prints its endpoint (to put in
   * {@code STORAGE_EMULATOR_HOST}) and creates the buckets named as arguments.
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    GcsStandIn s = start();
    for (String bucket : args) {
      s.createBucket(bucket);
    }
    System.out.println(s.endpoint());
    Thread.currentThread().join();
  }

  /** The endpoint to give the client, {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
  }

  /** The settings of a client of this server, with the default retry policy. */
  public io.tilebeam.io.storage.GcsSettings settings() {
    return new io.tilebeam.io.storage.GcsSettings(
        endpoint(), "test", io.tilebeam.io.retry.RetryPolicy.DEFAULT);
  }

  /**
   * Creates {@code bucket} if needed and uploads {@code data} as {@code object} through the real
   * client, as a user's upload would.
   */
  public void upload(String bucket, String object, byte[] data) {
    createBucket(bucket);
    com.google.cloud.storage.Storage storage = settings().open();
    storage.create(
        com.google.cloud.storage.BlobInfo.newBuilder(
                com.google.cloud.storage.BlobId.of(bucket, object))
            .build(),
        data);
    io.tilebeam.io.storage.GcsSettings.closeQuietly(storage);
  }

  /** Creates an empty bucket. */
  public synchronized void createBucket(String name) {
    buckets.putIfAbsent(name, new TreeMap<>());
  }

  /** The live objects of a bucket whose names start with {@code prefix}, by name. */
  public synchronized Map<String, StoredObject> objects(String bucket, String prefix) {
    Map<String, StoredObject> out = new TreeMap<>();
    buckets
        .get(bucket)
        .tailMap(prefix)
        .forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                out.put(k, v);
              }
            });
    return out;
  }

  /**
   * Injects {@code fault} into the next request whose description ({@code METHOD path?query})
   * matches; each injected fault is used once, in the order given.
   */
  public void inject(Predicate<String> request, Fault fault) {
    faults.add(new Injected(request, fault));
  }

  /**
   * From now on, fails a share {@code rate} of all requests, chosen by a random source seeded with
   * {@code seed}, with a transient fault (503, 429, or the connection dropped before or after the
   * request took effect); 0 stops it.
   */
  public void failRandomly(double rate, long seed) {
    this.faultRate = rate;
    this.random = rate > 0 ? new Random(seed) : null;
  }

  /** Requests failed by {@link #failRandomly} so far. */
  public int randomFaults() {
    return randomFaults.get();
  }

  /** Every request received so far, as {@code METHOD path?query}. */
  public List<String> requests() {
    return new ArrayList<>(requests);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    {
      String raw = ex.getRequestURI().getRawPath();
      String query = ex.getRequestURI().getRawQuery();
      String description = ex.getRequestMethod() + " " + raw + (query == null ? "" : "?" + query);
      requests.add(description);
      Map<String, String> q = parseQuery(query);
      String range = ex.getRequestHeaders().getFirst("Range");
      if (range != null) {
        q.put(RANGE_HEADER, range);
      }
      byte[] body = readBody(ex);
      Fault fault = takeFault(description);
      if (fault == Fault.DROP_BEFORE) {
        // Closed before any status line: to the client, the server went away mid-request. (A 200
        // with a cut body would read as success to a call that ignores the body, like DELETE.)
        ex.close();
        return;
      }
      if (fault == Fault.UNAVAILABLE
          || fault == Fault.TOO_MANY_REQUESTS
          || fault == Fault.FORBIDDEN) {
        int code = fault == Fault.UNAVAILABLE ? 503 : fault == Fault.FORBIDDEN ? 403 : 429;
        respond(ex, new Response(code, error(code, "injected", "injected fault")));
        ex.close();
        return;
      }
      Response r;
      try {
        r = route(ex, segments(raw), q, body);
      } catch (GcsError e) {
        r = new Response(e.code, error(e.code, e.reason, e.getMessage()));
      }
      if (fault == Fault.DROP_AFTER) {
        dropConnection(ex);
        return;
      }
      respond(ex, r);
      ex.close();
    }
  }

  private Fault takeFault(String description) {
    Random random = this.random;
    if (random != null) {
      synchronized (random) {
        if (random.nextDouble() < faultRate) {
          randomFaults.incrementAndGet();
          return TRANSIENT[random.nextInt(TRANSIENT.length)];
        }
      }
    }
    for (Injected i : faults) {
      if (i.request().test(description) && faults.remove(i)) {
        return i.fault();
      }
    }
    return null;
  }

  private record Response(int code, Object body, Map<String, String> headers) {
    Response(int code, Object body) {
      this(code, body, Map.of());
    }
  }

  private static final class GcsError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int code;
    final String reason;

    GcsError(int code, String reason, String message) {
      super(message);
      this.code = code;
      this.reason = reason;
    }
  }

  private Response route(HttpExchange ex, List<String> s, Map<String, String> q, byte[] body)
      throws IOException {
    String method = ex.getRequestMethod();
    if (!s.isEmpty() && s.get(0).equals("download")) {
      s = s.subList(1, s.size()); // media downloads: /download/storage/v1/b/{bucket}/o/{object}
    }
    if (s.size() >= 4 && s.get(0).equals("upload") && s.get(1).equals("storage")) {
      return upload(ex, method, s.get(4), q, body);
    }
    if (s.size() < 4 || !s.get(0).equals("storage") || !s.get(2).equals("b")) {
      throw new GcsError(404, "notFound", "no such API: " + s);
    }
    String bucket = s.get(3);
    if (s.size() == 4 && method.equals("GET")) {
      return new Response(200, bucketResource(bucket));
    }
    if (s.size() == 5 && s.get(4).equals("o") && method.equals("GET")) {
      return list(bucket, q);
    }
    if (s.size() == 6 && s.get(4).equals("o")) {
      String name = s.get(5);
      switch (method) {
        case "GET":
          return get(bucket, name, q);
        case "DELETE":
          return delete(bucket, name, q);
        default:
          throw new GcsError(405, "methodNotAllowed", method);
      }
    }
    // POST /storage/v1/b/{bucket}/o/{object}/rewriteTo|copyTo/b/{bucket}/o/{object}
    if (s.size() == 11
        && method.equals("POST")
        && (s.get(6).equals("rewriteTo") || s.get(6).equals("copyTo"))) {
      return copy(bucket, s.get(5), s.get(8), s.get(10), s.get(6).equals("rewriteTo"), q, body);
    }
    throw new GcsError(404, "notFound", "no such API: " + method + " " + s);
  }

  private synchronized TreeMap<String, StoredObject> bucket(String name) {
    TreeMap<String, StoredObject> b = buckets.get(name);
    if (b == null) {
      throw new GcsError(404, "notFound", "The specified bucket does not exist: " + name);
    }
    return b;
  }

  private synchronized ObjectNode bucketResource(String name) {
    bucket(name);
    ObjectNode b = JSON.createObjectNode();
    b.put("kind", "storage#bucket");
    b.put("id", name);
    b.put("name", name);
    b.put("metageneration", "1");
    return b;
  }

  private synchronized Response list(String bucket, Map<String, String> q) {
    String prefix = q.getOrDefault("prefix", "");
    int max = Integer.parseInt(q.getOrDefault("maxResults", "1000"));
    String from = q.getOrDefault("pageToken", prefix);
    ArrayNode items = JSON.createArrayNode();
    String next = null;
    for (StoredObject o : bucket(bucket).tailMap(from, true).values()) {
      if (!o.name().startsWith(prefix)) {
        break;
      }
      if (items.size() == max) {
        next = o.name();
        break;
      }
      items.add(resource(o));
    }
    ObjectNode page = JSON.createObjectNode();
    page.put("kind", "storage#objects");
    if (!items.isEmpty()) {
      page.set("items", items);
    }
    if (next != null) {
      page.put("nextPageToken", next);
    }
    return new Response(200, page);
  }

  private synchronized Response get(String bucket, String name, Map<String, String> q) {
    StoredObject o = bucket(bucket).get(name);
    checkPreconditions(o, q, "");
    // Only the live generation is kept: asking for an older one finds nothing.
    if (o == null
        || (q.containsKey("generation") && Long.parseLong(q.get("generation")) != o.generation())) {
      throw new GcsError(404, "notFound", "No such object: " + bucket + "/" + name);
    }
    if ("media".equals(q.get("alt"))) {
      Map<String, String> headers = new HashMap<>();
      headers.put("x-goog-generation", Long.toString(o.generation()));
      headers.put("x-goog-hash", "crc32c=" + crc32c(o.data()) + ",md5=" + md5(o.data()));
      String range = q.get(RANGE_HEADER);
      if (range == null || !range.startsWith("bytes=")) {
        return new Response(200, o.data(), headers);
      }
      // "bytes=first-" or "bytes=first-last": a ranged read answers 206 with that slice.
      String[] bounds = range.substring("bytes=".length()).split("-", -1);
      long first = Long.parseLong(bounds[0]);
      long last = bounds[1].isEmpty() ? o.data().length - 1 : Long.parseLong(bounds[1]);
      last = Math.min(last, o.data().length - 1);
      if (first > last) {
        headers.put("Content-Range", "bytes */" + o.data().length);
        return new Response(416, null, headers);
      }
      headers.put("Content-Range", "bytes " + first + "-" + last + "/" + o.data().length);
      return new Response(
          206, java.util.Arrays.copyOfRange(o.data(), (int) first, (int) last + 1), headers);
    }
    return new Response(200, resource(o));
  }

  private synchronized Response delete(String bucket, String name, Map<String, String> q) {
    StoredObject o = bucket(bucket).get(name);
    checkPreconditions(o, q, "");
    if (o == null) {
      throw new GcsError(404, "notFound", "No such object: " + bucket + "/" + name);
    }
    bucket(bucket).remove(name);
    return new Response(204, null);
  }

  private synchronized Response copy(
      String srcBucket,
      String srcName,
      String dstBucket,
      String dstName,
      boolean rewrite,
      Map<String, String> q,
      byte[] body)
      throws IOException {
    StoredObject src = bucket(srcBucket).get(srcName);
    checkPreconditions(src, q, "Source");
    if (src == null) {
      throw new GcsError(404, "notFound", "No such object: " + srcBucket + "/" + srcName);
    }
    ObjectNode given =
        body.length == 0 ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(body);
    Map<String, String> metadata =
        given.has("metadata") ? metadata(given) : new LinkedHashMap<>(src.metadata());
    String contentType = given.path("contentType").asText(src.contentType());
    StoredObject created = store(dstBucket, dstName, src.data(), metadata, contentType, q);
    if (!rewrite) {
      return new Response(200, resource(created));
    }
    ObjectNode r = JSON.createObjectNode();
    r.put("kind", "storage#rewriteResponse");
    r.put("totalBytesRewritten", Integer.toString(src.data().length));
    r.put("objectSize", Integer.toString(src.data().length));
    r.put("done", true);
    r.set("resource", resource(created));
    return new Response(200, r);
  }

  private Response upload(
      HttpExchange ex, String method, String bucket, Map<String, String> q, byte[] body)
      throws IOException {
    String type = q.getOrDefault("uploadType", "media");
    if (method.equals("PUT") && type.equals("resumable")) {
      return resumableChunk(ex, q.get("upload_id"), body);
    }
    if (!method.equals("POST")) {
      throw new GcsError(405, "methodNotAllowed", method + " upload");
    }
    switch (type) {
      case "media":
        return new Response(
            200,
            resource(
                storeChecked(
                    bucket,
                    JSON.createObjectNode().put("name", q.get("name")),
                    body,
                    ex.getRequestHeaders().getFirst("Content-Type"),
                    q)));
      case "multipart":
        return multipart(ex, bucket, q, body);
      case "resumable":
        ObjectNode resource =
            body.length == 0 ? JSON.createObjectNode() : (ObjectNode) JSON.readTree(body);
        if (!resource.has("name")) {
          resource.put("name", q.get("name"));
        }
        String id = "u" + uploadIds.incrementAndGet();
        synchronized (this) {
          bucket(bucket);
          uploads.put(id, new Upload(bucket, resource, q));
          uploadBytes.put(id, new ByteArrayOutputStream());
        }
        String location =
            endpoint()
                + "/upload/storage/v1/b/"
                + bucket
                + "/o?uploadType=resumable&upload_id="
                + id;
        return new Response(200, null, Map.of("Location", location));
      default:
        throw new GcsError(400, "invalid", "unknown uploadType " + type);
    }
  }

  private Response multipart(HttpExchange ex, String bucket, Map<String, String> q, byte[] body)
      throws IOException {
    String contentType = ex.getRequestHeaders().getFirst("Content-Type");
    int at = contentType.indexOf("boundary=");
    String boundary = contentType.substring(at + "boundary=".length()).replace("\"", "").trim();
    List<byte[]> parts = MultipartBody.split(body, boundary);
    if (parts.size() != 2) {
      throw new GcsError(400, "invalid", "multipart upload needs 2 parts, had " + parts.size());
    }
    MultipartBody.Part meta = MultipartBody.parse(parts.get(0));
    MultipartBody.Part media = MultipartBody.parse(parts.get(1));
    ObjectNode resource = (ObjectNode) JSON.readTree(meta.body());
    return new Response(
        200, resource(storeChecked(bucket, resource, media.body(), media.contentType(), q)));
  }

  private Response resumableChunk(HttpExchange ex, String id, byte[] body) {
    String range = ex.getRequestHeaders().getFirst("Content-Range");
    Upload u;
    ByteArrayOutputStream bytes;
    synchronized (this) {
      u = uploads.get(id);
      bytes = uploadBytes.get(id);
    }
    if (u == null) {
      throw new GcsError(404, "notFound", "no such upload " + id);
    }
    // Content-Range: "bytes a-b/total", "bytes a-b/*", or "bytes */total" (a status query).
    String spec = range == null ? "bytes */*" : range.substring("bytes ".length());
    String total = spec.substring(spec.indexOf('/') + 1);
    synchronized (this) {
      if (!spec.startsWith("*")) {
        long first = Long.parseLong(spec.substring(0, spec.indexOf('-')));
        if (first != bytes.size()) {
          throw new GcsError(400, "invalid", "chunk starts at " + first + ", have " + bytes.size());
        }
        bytes.write(body, 0, body.length);
      }
      if (total.equals("*") || Long.parseLong(total) != bytes.size()) {
        Map<String, String> headers =
            bytes.size() == 0 ? Map.of() : Map.of("Range", "bytes=0-" + (bytes.size() - 1));
        return new Response(308, null, headers);
      }
      uploads.remove(id);
      uploadBytes.remove(id);
      String type = u.resource().path("contentType").asText("application/octet-stream");
      return new Response(
          200,
          resource(storeChecked(u.bucket(), u.resource(), bytes.toByteArray(), type, u.query())));
    }
  }

  private synchronized StoredObject storeChecked(
      String bucket, ObjectNode resource, byte[] data, String contentType, Map<String, String> q) {
    if (resource.has("crc32c") && !resource.get("crc32c").asText().equals(crc32c(data))) {
      throw new GcsError(400, "invalid", "Provided CRC32C does not match the data");
    }
    if (resource.has("md5Hash") && !resource.get("md5Hash").asText().equals(md5(data))) {
      throw new GcsError(400, "invalid", "Provided MD5 hash does not match the data");
    }
    String name = resource.path("name").asText(null);
    if (name == null || name.isEmpty()) {
      throw new GcsError(400, "required", "object name is required");
    }
    String type = resource.path("contentType").asText(contentType);
    return store(bucket, name, data, metadata(resource), type, q);
  }

  private synchronized StoredObject store(
      String bucket,
      String name,
      byte[] data,
      Map<String, String> metadata,
      String contentType,
      Map<String, String> q) {
    TreeMap<String, StoredObject> b = bucket(bucket);
    checkPreconditions(b.get(name), q, "");
    StoredObject o =
        new StoredObject(
            bucket,
            name,
            data.clone(),
            generations.incrementAndGet(),
            1,
            Map.copyOf(metadata),
            contentType == null ? "application/octet-stream" : contentType,
            Instant.now());
    b.put(name, o);
    return o;
  }

  private static void checkPreconditions(StoredObject o, Map<String, String> q, String kind) {
    String match = q.get("if" + kind + "GenerationMatch");
    if (match != null) {
      long want = Long.parseLong(match);
      boolean ok = want == 0 ? o == null : o != null && o.generation() == want;
      if (!ok) {
        throw new GcsError(412, "conditionNotMet", "if" + kind + "GenerationMatch failed");
      }
    }
    String notMatch = q.get("if" + kind + "GenerationNotMatch");
    if (notMatch != null && o != null && o.generation() == Long.parseLong(notMatch)) {
      throw new GcsError(412, "conditionNotMet", "if" + kind + "GenerationNotMatch failed");
    }
    String metaMatch = q.get("if" + kind + "MetagenerationMatch");
    if (metaMatch != null && (o == null || o.metageneration() != Long.parseLong(metaMatch))) {
      throw new GcsError(412, "conditionNotMet", "if" + kind + "MetagenerationMatch failed");
    }
  }

  private static Map<String, String> metadata(JsonNode resource) {
    Map<String, String> m = new LinkedHashMap<>();
    resource
        .path("metadata")
        .fields()
        .forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
    return m;
  }

  private static ObjectNode resource(StoredObject o) {
    ObjectNode r = JSON.createObjectNode();
    r.put("kind", "storage#object");
    r.put("id", o.bucket() + "/" + o.name() + "/" + o.generation());
    r.put("bucket", o.bucket());
    r.put("name", o.name());
    r.put("generation", Long.toString(o.generation()));
    r.put("metageneration", Long.toString(o.metageneration()));
    r.put("contentType", o.contentType());
    r.put("size", Integer.toString(o.data().length));
    r.put("crc32c", crc32c(o.data()));
    r.put("md5Hash", md5(o.data()));
    r.put("timeCreated", o.created().toString());
    r.put("updated", o.created().toString());
    if (!o.metadata().isEmpty()) {
      ObjectNode m = r.putObject("metadata");
      o.metadata().forEach(m::put);
    }
    return r;
  }

  /** The CRC32C of {@code data} as GCS states it: base64 of the big-endian 32-bit value. */
  public static String crc32c(byte[] data) {
    CRC32C c = new CRC32C();
    c.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
  }

  private static String md5(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ObjectNode error(int code, String reason, String message) {
    ObjectNode e = JSON.createObjectNode();
    ObjectNode inner = e.putObject("error");
    inner.put("code", code);
    inner.put("message", message);
    ObjectNode detail = inner.putArray("errors").addObject();
    detail.put("reason", reason);
    detail.put("message", message);
    detail.put("domain", "global");
    return e;
  }

  private static void respond(HttpExchange ex, Response r) throws IOException {
    r.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
    byte[] out;
    if (r.body() instanceof byte[] b) {
      out = b;
      ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
    } else if (r.body() != null) {
      out = JSON.writeValueAsBytes(r.body());
      ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    } else {
      out = new byte[0];
    }
    if (r.code() == 204 || out.length == 0) {
      ex.sendResponseHeaders(r.code(), -1);
      return;
    }
    ex.sendResponseHeaders(r.code(), out.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(out);
    }
  }

  /**
   * Promises a body, sends part of it, and fails the exchange: the server then closes the socket,
   * and the client sees the connection end mid-response.
   */
  private static void dropConnection(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    ex.sendResponseHeaders(200, 1000);
    OutputStream os = ex.getResponseBody();
    os.write("{\"kind\":".getBytes(StandardCharsets.UTF_8));
    os.flush();
    throw new IOException("connection dropped on purpose");
  }

  private static byte[] readBody(HttpExchange ex) throws IOException {
    InputStream in = ex.getRequestBody();
    if ("gzip".equalsIgnoreCase(ex.getRequestHeaders().getFirst("Content-Encoding"))) {
      in = new GZIPInputStream(in);
    }
    try (InputStream body = in) {
      return body.readAllBytes();
    }
  }

  private static List<String> segments(String rawPath) {
    List<String> out = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        out.add(URLDecoder.decode(s, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static Map<String, String> parseQuery(String raw) {
    Map<String, String> q = new HashMap<>();
    if (raw == null) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      q.put(k, v);
    }
    return q;
  }
}
