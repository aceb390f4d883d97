package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tilebeam run} process killed with SIGKILL while it publishes, then a rerun: the
 * embedded ledger's server stops with the killed run, the published result equals a clean run's, no
 * temporary file stands at a final name, {@code reap} removes what the dead process left, and
 * {@code verify} passes.
 */
@Tag("slow")
class KillIT {

  @TempDir Path dir;

  /** Final tile files (not hidden, not dead letters) and their checksums. */
  private static Map<String, String> tiles(Path out) throws IOException {
    return TestJobs.publishedTiles(out);
  }

  /** The pid of the embedded ledger's server in {@code home}, from its postmaster.pid. */
  private static long ledgerServer(Path home) throws IOException {
    List<String> lines = Files.readAllLines(home.resolve("ledger/postmaster.pid"));
    return Long.parseLong(lines.get(0).trim());
  }

  @Test
  void aRunKilledWhilePublishingIsFinishedByTheNextOneWithTheCleanResult() throws Exception {
    Path killedDir = Files.createDirectories(dir.resolve("killed"));
    Path job = TestJobs.sample(killedDir);
    Path out = killedDir.resolve("out");
    Path home = killedDir.resolve("home");

    Process run =
        TestJobs.startRun(
            job,
            killedDir.resolve("killed.log"),
            Map.of(),
            "--home",
            home.toString(),
            "--runner=DirectRunner");
    // Kill it as soon as it has published something: in the middle of PublishTiles.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    int published = 0;
    while (run.isAlive() && System.nanoTime() < deadline) {
      published = TestJobs.publishedCount(out);
      if (published > 0) {
        break;
      }
      Thread.sleep(20);
    }
    assertTrue(run.isAlive(), "the run finished before it could be killed: see killed.log");
    long server = ledgerServer(home);
    run.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
    assertTrue(run.waitFor(30, TimeUnit.SECONDS));
    // The ledger's server does not outlive the killed run: its watchdog stops it.
    ProcessHandle.of(server).ifPresent(p -> p.onExit().orTimeout(60, TimeUnit.SECONDS).join());
    assertFalse(ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false));
    int atKill = tiles(out).size();
    assertTrue(atKill < EndToEndIT.SAMPLE_TILES, "killed mid-run: " + atKill + " tiles");

    // Every file at a final name is a whole tile: its format reads it back.
    TestJobs.checkWholeTiles(out, tiles(out).keySet());

    TestJobs.Result rerun =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, rerun.code(), rerun.err());

    Path cleanDir = Files.createDirectories(dir.resolve("clean"));
    Path cleanJob = TestJobs.sample(cleanDir);
    TestJobs.Result clean =
        TestJobs.execute(
            "run", "--job", cleanJob.toString(), "--home", cleanDir.resolve("home").toString());
    assertEquals(ExitCode.OK, clean.code(), clean.err());
    assertEquals(tiles(cleanDir.resolve("out")), tiles(out));

    // The dead process's temporary files are over a second old by now (the rerun took longer).
    TestJobs.Result reap =
        TestJobs.execute(
            "reap", "--job", job.toString(), "--home", home.toString(), "--older-than", "1s");
    assertEquals(ExitCode.OK, reap.code(), reap.err());
    assertEquals(List.of(), TestJobs.temporaries(out));

    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
    assertTrue(verify.out().contains(EndToEndIT.SAMPLE_TILES + " completed tiles"), verify.out());
  }
}
