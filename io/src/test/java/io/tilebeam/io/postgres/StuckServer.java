package io.tilebeam.io.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP server on a loopback port that a database client cannot get an answer from: it accepts
 * every connection and then either says nothing while holding it open ({@link Mode#SILENT}: a hung
 * server, a firewall that lets the handshake through) or closes it at once ({@link Mode#HANG_UP}).
 */
public final class StuckServer implements AutoCloseable {

  /** What the server does with a connection it accepted. */
  public enum Mode {
    /** Holds it open and never writes. */
    SILENT,
    /** Closes it without a byte. */
    HANG_UP
  }

  private final ServerSocket server;
  private final List<Socket> held = new ArrayList<>();
  private final Thread acceptor;

  /** Listens on a free loopback port until closed. */
  public StuckServer(Mode mode) throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket s = server.accept();
                  if (mode == Mode.HANG_UP) {
                    s.close();
                  } else {
                    synchronized (held) {
                      held.add(s);
                    }
                  }
                } catch (IOException e) {
                  return; // closed
                }
              }
            },
            "stuck-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A JDBC URL of this server with a password in it, which no message may show. */
  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:"
        + server.getLocalPort()
        + "/tiles?user=bob&password=s3cr3t";
  }

  /** The URL as messages show it. */
  public String maskedUrl() {
    return "jdbc:postgresql://127.0.0.1:" + server.getLocalPort() + "/tiles?user=bob&password=***";
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (held) {
      for (Socket s : held) {
        s.close();
      }
    }
  }
}
