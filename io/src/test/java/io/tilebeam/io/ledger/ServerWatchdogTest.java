package io.tilebeam.io.ledger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog of the embedded ledger's server, on a stand-in server (a {@code sleep} process) and
 * a data directory whose {@code postmaster.pid} names it: the end of the pipe from the JVM, which
 * the JVM's death causes, stops the server it watches and nothing else; {@link
 * ServerWatchdog#close} leaves the server alone.
 */
class ServerWatchdogTest {

  @TempDir Path data;
  private Process server;

  private Process standInServer() throws Exception {
    server = new ProcessBuilder(List.of("sleep", "300")).start();
    return server;
  }

  @AfterEach
  void stopServer() {
    if (server != null) {
      server.destroyForcibly();
    }
  }

  private void pidFile(long pid) throws Exception {
    Files.writeString(data.resolve("postmaster.pid"), pid + "\n" + data + "\n1733572800\n");
  }

  @Test
  void theEndOfThePipeStopsTheServerItWatches() throws Exception {
    Process s = standInServer();
    pidFile(s.pid());
    ServerWatchdog watchdog = ServerWatchdog.start(s.pid(), data).orElseThrow();
    assertFalse(s.waitFor(300, TimeUnit.MILLISECONDS), "the server runs while the JVM lives");
    watchdog.closePipe();
    assertTrue(s.waitFor(30, TimeUnit.SECONDS), "the server was stopped");
    assertTrue(watchdog.handle().onExit().get(30, TimeUnit.SECONDS) != null);
  }

  @Test
  void aServerStartedSinceIsLeftAlone() throws Exception {
    Process s = standInServer();
    // The directory's server is now another one (a next run's): the watched pid is not in the file.
    pidFile(s.pid());
    ServerWatchdog watchdog = ServerWatchdog.start(s.pid() + 1_000_000, data).orElseThrow();
    watchdog.closePipe();
    watchdog.handle().onExit().get(30, TimeUnit.SECONDS);
    assertTrue(s.isAlive(), "a server the watchdog does not watch runs on");
  }

  @Test
  void closingTheWatchdogLeavesTheServerRunning() throws Exception {
    Process s = standInServer();
    pidFile(s.pid());
    ServerWatchdog watchdog = ServerWatchdog.start(s.pid(), data).orElseThrow();
    watchdog.close();
    watchdog.handle().onExit().get(30, TimeUnit.SECONDS);
    assertFalse(s.waitFor(500, TimeUnit.MILLISECONDS), "the server runs on after close");
  }

  @Test
  void theLedgerClosesItsWatchdog() throws Exception {
    Path home = Files.createDirectories(data.resolve("home"));
    ProcessHandle watchdog;
    try (EmbeddedLedger ledger = EmbeddedLedger.start(home)) {
      watchdog = ledger.watchdog().orElseThrow();
      assertTrue(watchdog.isAlive());
    }
    watchdog.onExit().get(30, TimeUnit.SECONDS);
    assertFalse(Files.exists(home.resolve("ledger/postmaster.pid")), "the server stopped");
  }
}
