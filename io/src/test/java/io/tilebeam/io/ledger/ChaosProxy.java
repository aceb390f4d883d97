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
  private double rate;
  private java.util.Random random;

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

  /**
   * A proxy to {@code host:port} that, once {@link #arm}ed, cuts the connection at a share {@code
   * rate} of the client's messages (a statement, more or less), chosen by a random source seeded
   * with {@code seed}: half of the cuts before the message reaches the server (the statement never
   * runs), half after (it runs, and its answer is lost).
   */
  public static ChaosProxy random(String host, int port, double rate, long seed)
      throws IOException {
    ChaosProxy p = new ChaosProxy(host, port, Integer.MAX_VALUE, Integer.MAX_VALUE);
    p.rate = rate;
    p.random = new java.util.Random(seed);
    return p;
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
        pump(client, upstream, doomed, true);
        pump(upstream, client, false, false);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** 0: no cut; 1: cut before forwarding this message; 2: cut after forwarding it. */
  private int randomCut() {
    if (random == null || !armed) {
      return 0;
    }
    synchronized (random) {
      if (random.nextDouble() >= rate) {
        return 0;
      }
      cuts.incrementAndGet();
      return random.nextBoolean() ? 1 : 2;
    }
  }

  private void pump(Socket from, Socket to, boolean doomed, boolean clientSide) {
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
                  int randomCut = clientSide ? randomCut() : 0;
                  if (randomCut == 1) {
                    break;
                  }
                  out.write(buf, 0, n);
                  out.flush();
                  if (randomCut == 2) {
                    // Let the server take the message before the answer's way is cut.
                    Thread.sleep(20);
                    break;
                  }
                }
              } catch (IOException ignored) {
                // The other direction closed the connection.
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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
