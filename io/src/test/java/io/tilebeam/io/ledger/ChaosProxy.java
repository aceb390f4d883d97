package io.tilebeam.io.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy that cuts connections at random, for tests: after each chunk a client sends,
 * the connection is closed on both sides with probability {@code cutChance}, as a network reset
 * would. The statement in flight may or may not have reached the server, so both "refused" and
 * "applied, answer lost" happen. The random source is seeded.
 */
public final class ChaosProxy implements AutoCloseable {

  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final int everyNth;
  private final int afterChunks;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger cuts = new AtomicInteger();
  private volatile boolean armed;

  private ChaosProxy(String host, int port, int everyNth, int afterChunks) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetHost = host;
    this.targetPort = port;
    this.everyNth = everyNth;
    this.afterChunks = afterChunks;
    Thread accept = new Thread(this::accept, "chaos-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** A proxy to {@code host:port}, not cutting anything until {@link #arm}ed. */
  public static ChaosProxy start(String host, int port, int everyNth, int afterChunks)
      throws IOException {
    return new ChaosProxy(host, port, everyNth, afterChunks);
  }

  /** The proxy's port on the loopback address. */
  public int port() {
    return server.getLocalPort();
  }

  /** Starts or stops cutting connections. */
  public void arm(boolean on) {
    armed = on;
  }

  /** Connections cut so far. */
  public int cuts() {
    return cuts.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(targetHost, targetPort);
        boolean doomed = armed && connections.incrementAndGet() % everyNth == 0;
        pump(client, upstream, doomed);
        pump(upstream, client, false);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean doomed) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              int chunks = 0;
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                  if (doomed && ++chunks == afterChunks) {
                    cuts.incrementAndGet();
                    break;
                  }
                  out.write(buf, 0, n);
                  out.flush();
                }
              } catch (IOException ignored) {
                // The other direction closed the connection.
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "chaos-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // Already closed.
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
