package io.tilebeam.pipeline.cli;

import io.tilebeam.pipeline.preview.PreviewFiles;
import io.tilebeam.pipeline.preview.PreviewServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code tilebeam serve --dir OUT [--port N] [--host H]}: serves an output directory and its map
 * preview over HTTP until the process is stopped (Ctrl-C). Loopback only unless {@code --host} says
 * otherwise: the tiles are the user's, not the network's.
 */
final class ServeCommand {

  /** The port when none is given. */
  static final int DEFAULT_PORT = 8080;

  private ServeCommand() {}

  static int run(Path dir, String host, int port, PrintStream out) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new UsageException("--dir " + dir + ": not a directory");
    }
    PreviewServer server;
    try {
      server = PreviewServer.start(dir, host, port);
    } catch (java.net.BindException e) {
      throw new UsageException("--port " + port + ": " + e.getMessage() + " (try --port 0)");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                }));
    out.println("serving " + dir.toAbsolutePath().normalize() + " at " + server.pageUrl());
    if (!Files.isRegularFile(dir.resolve(PreviewFiles.PAGE))) {
      out.println(
          "(no "
              + PreviewFiles.PAGE
              + " here: a run writes one beside MVT, PNG, terrain tiles and"
              + " PMTiles archives in Web Mercator)");
    }
    out.flush();
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close();
    }
    return ExitCode.OK;
  }
}
