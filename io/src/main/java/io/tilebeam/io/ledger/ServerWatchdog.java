package io.tilebeam.io.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the embedded ledger's server when the JVM that started it dies without closing it (SIGKILL,
 * the kernel's OOM killer, a crash), instead of leaving it running until the next run on the same
 * home stops it.
 *
 * <p>The watchdog is a small shell process that reads its standard input, a pipe whose only writer
 * is this JVM, and never gets a byte. However the JVM ends, the kernel closes the pipe and the
 * watchdog reads the end of it; there is no polling. It then asks the server to shut down (SIGTERM,
 * PostgreSQL's smart shutdown: the dead JVM's connections are gone already), but only if the data
 * directory's {@code postmaster.pid} still names that server: a next run may have started its own
 * server there in the meantime. {@link #close} ends the watchdog before a normal stop of the
 * server. The pipe also closes when this object is collected unclosed (the JDK's cleaner of its
 * file descriptor), so the ledger that holds it must stay reachable while its server is in use.
 */
final class ServerWatchdog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ServerWatchdog.class);

  // $1: the server's pid; $2: its data directory. `read` is the shell's own, so ending the shell
  // leaves no child behind.
  private static final String SCRIPT =
      "while read -r _; do :; done; "
          + "[ \"$(head -n 1 \"$2/postmaster.pid\" 2>/dev/null)\" = \"$1\" ] && kill -TERM \"$1\"";

  private final Process process;

  private ServerWatchdog(Process process) {
    this.process = process;
  }

  /**
   * Starts a watchdog of server {@code serverPid} on {@code data}; empty, with the reason logged,
   * where no shell can be started (the server is then left to the next run, as before).
   */
  static Optional<ServerWatchdog> start(long serverPid, Path data) {
    try {
      Process p =
          new ProcessBuilder(
                  List.of(
                      "/bin/sh",
                      "-c",
                      SCRIPT,
                      "tilebeam-ledger-watchdog",
                      Long.toString(serverPid),
                      data.toAbsolutePath().toString()))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return Optional.of(new ServerWatchdog(p));
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("No watchdog for the embedded ledger's server: {}", e.toString());
      return Optional.empty();
    }
  }

  /** The watchdog's process, for tests. */
  ProcessHandle handle() {
    return process.toHandle();
  }

  /**
   * Closes this JVM's end of the pipe, as the JVM's death does, for tests: the watchdog then stops
   * the server if it is still the one it watches.
   */
  void closePipe() throws IOException {
    process.getOutputStream().close();
  }

  /** Ends the watchdog without touching the server. */
  @Override
  public void close() {
    process.destroy();
    try {
      closePipe();
    } catch (IOException e) {
      // The pipe is closed either way once the process is gone.
    }
  }
}
