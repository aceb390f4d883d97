package io.tilebeam.io.storage;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP proxy on a loopback port in front of an S3-compatible server, for the faults that server
 * will not make: S3's throttling answers (503 SlowDown, 429), connections reset before a request
 * reaches the server or after it took effect, a request body cut off half-way (a client killed
 * mid-upload), and credentials refused (403 InvalidAccessKeyId for any access key but the expected
 * one). Requests pass through byte for byte otherwise; each connection carries one request ({@code
 * Connection: close}), so that a fault ends exactly one request.
 */
public final class S3FaultProxy implements AutoCloseable {

  /** What happens to a request. */
  public enum Fault {
    /** 503 with S3's {@code SlowDown} error, before the server sees it. */
    SLOW_DOWN,
    /** 429 Too Many Requests, before the server sees it. */
    TOO_MANY,
    /** The connection reset before the request reaches the server. */
    RESET_BEFORE,
    /** The request reaches the server and takes effect; the answer is lost in a reset. */
    RESET_AFTER,
    /** Half the request body reaches the server, then both connections are reset. */
    CUT_BODY,
    /** One byte of the request body is changed on the way to the server. */
    CORRUPT_BODY,
    /** 403 AccessDenied, before the server sees it: a refusal that no retry clears. */
    FORBIDDEN
  }

  private record Armed(Predicate<String> matches, Fault fault) {}

  private static final Pattern CREDENTIAL = Pattern.compile("Credential=([^/,\\s]+)/");

  private final ServerSocket server;
  private final int upstreamPort;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final ConcurrentLinkedQueue<Armed> armed = new ConcurrentLinkedQueue<>();
  private final AtomicInteger faults = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final List<String> log = new ArrayList<>();
  private volatile double rate;
  private volatile Random random = new Random(0);
  private volatile String accessKey;

  private S3FaultProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    threads.execute(this::acceptLoop);
  }

  /** A proxy to the server on loopback port {@code upstreamPort}, passing everything through. */
  public static S3FaultProxy start(int upstreamPort) throws IOException {
    return new S3FaultProxy(upstreamPort);
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** Makes the next request whose request line matches {@code matches} fail with {@code fault}. */
  public void inject(Predicate<String> matches, Fault fault) {
    armed.add(new Armed(matches, fault));
  }

  /**
   * Makes each request fail with probability {@code rate}, the fault drawn evenly from {@link
   * Fault#SLOW_DOWN}, {@link Fault#TOO_MANY}, {@link Fault#RESET_BEFORE} and {@link
   * Fault#RESET_AFTER}, from a seeded random sequence.
   */
  public void random(double rate, long seed) {
    this.random = new Random(seed);
    this.rate = rate;
  }

  /** Refuses with 403 every request not signed with {@code key} (null: accept any). */
  public void requireAccessKey(String key) {
    this.accessKey = key;
  }

  /** How many faults were made. */
  public int faults() {
    return faults.get();
  }

  /** How many requests came in. */
  public int requests() {
    return requests.get();
  }

  /** The request lines seen, in order. */
  public synchronized List<String> requestLines() {
    return List.copyOf(log);
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> handle(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private Fault choose(String requestLine) {
    for (Armed a : armed) {
      if (a.matches().test(requestLine) && armed.remove(a)) {
        return a.fault();
      }
    }
    synchronized (this) {
      if (rate > 0 && random.nextDouble() < rate) {
        return Fault.values()[random.nextInt(4)];
      }
    }
    return null;
  }

  private void handle(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      byte[] head = readHead(in);
      if (head == null) {
        return;
      }
      String text = new String(head, StandardCharsets.ISO_8859_1);
      String[] lines = text.split("\r\n");
      String requestLine = lines[0];
      requests.incrementAndGet();
      synchronized (this) {
        log.add(requestLine);
      }
      List<String> headers = new ArrayList<>();
      long length = 0;
      boolean expectContinue = false;
      String authorization = null;
      for (int i = 1; i < lines.length; i++) {
        String h = lines[i];
        String name = h.substring(0, Math.max(0, h.indexOf(':'))).strip().toLowerCase(Locale.ROOT);
        String value = h.substring(h.indexOf(':') + 1).strip();
        switch (name) {
          case "connection", "keep-alive" -> {}
          case "expect" -> expectContinue = value.equalsIgnoreCase("100-continue");
          default -> {
            if (name.equals("content-length")) {
              length = Long.parseLong(value);
            } else if (name.equals("authorization")) {
              authorization = value;
            }
            headers.add(h);
          }
        }
      }
      String key = accessKey;
      if (key != null && !key.equals(accessKeyOf(authorization))) {
        drain(in, length, expectContinue);
        answer(
            client,
            403,
            "Forbidden",
            "InvalidAccessKeyId",
            "The AWS Access Key Id you provided does not exist in our records.");
        return;
      }
      Fault fault = choose(requestLine);
      if (fault != null) {
        faults.incrementAndGet();
      }
      if (fault == Fault.SLOW_DOWN || fault == Fault.TOO_MANY || fault == Fault.FORBIDDEN) {
        drain(in, length, expectContinue);
      }
      if (fault == Fault.SLOW_DOWN) {
        answer(client, 503, "Slow Down", "SlowDown", "Please reduce your request rate.");
        return;
      }
      if (fault == Fault.TOO_MANY) {
        answer(client, 429, "Too Many Requests", "TooManyRequests", "Too many requests.");
        return;
      }
      if (fault == Fault.FORBIDDEN) {
        answer(client, 403, "Forbidden", "AccessDenied", "Access Denied");
        return;
      }
      if (fault == Fault.RESET_BEFORE) {
        reset(client);
        return;
      }
      forward(client, in, requestLine, headers, length, expectContinue, fault);
    } catch (IOException e) {
      // The client went away: nothing to answer.
    }
  }

  private void forward(
      Socket client,
      InputStream in,
      String requestLine,
      List<String> headers,
      long length,
      boolean expectContinue,
      Fault fault)
      throws IOException {
    try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
      StringBuilder head = new StringBuilder(requestLine).append("\r\n");
      headers.forEach(h -> head.append(h).append("\r\n"));
      head.append("Connection: close\r\n\r\n");
      OutputStream up = upstream.getOutputStream();
      up.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (expectContinue) {
        // The proxy says "go on" itself and sends the body on without the expectation.
        client.getOutputStream().write("HTTP/1.1 100 Continue\r\n\r\n".getBytes());
        client.getOutputStream().flush();
      }
      long send = fault == Fault.CUT_BODY ? length / 2 : length;
      if (fault == Fault.CORRUPT_BODY && length > 0) {
        byte[] body = in.readNBytes((int) length);
        body[body.length / 2] ^= 0x20;
        up.write(body);
      } else {
        copy(in, up, send);
      }
      up.flush();
      if (fault == Fault.CUT_BODY) {
        reset(upstream);
        reset(client);
        return;
      }
      InputStream down = upstream.getInputStream();
      if (fault == Fault.RESET_AFTER) {
        down.readAllBytes(); // the server finished the request
        reset(client);
        return;
      }
      down.transferTo(client.getOutputStream());
      client.getOutputStream().flush();
    }
  }

  /**
   * Reads a request's body before it is refused, as a server does, so that the client reads the
   * answer instead of a reset; a client waiting for "100 Continue" has sent none.
   */
  private static void drain(InputStream in, long length, boolean expectContinue)
      throws IOException {
    if (!expectContinue) {
      copy(in, OutputStream.nullOutputStream(), length);
    }
  }

  private static String accessKeyOf(String authorization) {
    if (authorization == null) {
      return null;
    }
    Matcher m = CREDENTIAL.matcher(authorization);
    return m.find() ? m.group(1) : null;
  }

  private static void answer(Socket client, int status, String reason, String code, String message)
      throws IOException {
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>"
                + code
                + "</Code><Message>"
                + message
                + "</Message><RequestId>fault</RequestId></Error>")
            .getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason
            + "\r\nContent-Type: application/xml\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    OutputStream out = client.getOutputStream();
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(body);
    out.flush();
    client.shutdownOutput();
  }

  private static void reset(Socket s) {
    try {
      s.setSoLinger(true, 0);
      s.close();
    } catch (IOException e) {
      // Already gone.
    }
  }

  private static void copy(InputStream in, OutputStream out, long n) throws IOException {
    byte[] buf = new byte[64 << 10];
    while (n > 0) {
      int r = in.read(buf, 0, (int) Math.min(buf.length, n));
      if (r < 0) {
        throw new IOException("request body ended early");
      }
      out.write(buf, 0, r);
      n -= r;
    }
  }

  /** The bytes up to and including the blank line that ends a request's head. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      state =
          (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
              ? state + 1
              : (b == '\r' ? 1 : 0);
      if (head.size() > 64 << 10) {
        throw new IOException("request head over 64 KiB");
      }
    }
    byte[] all = head.toByteArray();
    return java.util.Arrays.copyOf(all, all.length - 4);
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
  }
}
