package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tilebeam.transforms.raster.TestRasters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A raster run killed with SIGKILL while it publishes, then run again: the published tiles equal a
 * clean run's byte for byte, every file at a final name is a whole tile, and {@code reap} leaves no
 * temporary file.
 */
@Tag("slow")
class RasterKillIT {

  @TempDir Path dir;

  private static final String DEM = "{resampling: bilinear}";
  private static final String PNG = "{dataType: uint16, outputNodata: 0}";

  @Test
  void aKilledRasterRunIsFinishedByTheNextWithTheCleanResult() throws Exception {
    Path source = TestRasters.utmDem(Files.createDirectories(dir.resolve("src")));
    Path killed = Files.createDirectories(dir.resolve("killed"));
    Path job = RasterLayerIT.job(source, killed, 12, DEM, PNG);
    Path out = killed.resolve("out");
    Path home = killed.resolve("h");
    Process run =
        TestJobs.startRun(
            job,
            killed.resolve("killed.log"),
            Map.of(),
            "--home",
            home.toString(),
            "--runner=DirectRunner");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (run.isAlive() && System.nanoTime() < deadline && !anyTile(out)) {
      Thread.sleep(10);
    }
    assertTrue(run.isAlive(), "the run finished before it could be killed: see killed.log");
    run.destroyForcibly();
    assertTrue(run.waitFor(30, TimeUnit.SECONDS));
    Map<String, String> atKill = TestJobs.publishedTiles(out);
    TestJobs.checkWholeTiles(out, atKill.keySet());

    TestJobs.Result rerun =
        TestJobs.execute("run", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, rerun.code(), rerun.err());

    Path clean = Files.createDirectories(dir.resolve("clean"));
    Path cleanJob = RasterLayerIT.job(source, clean, 12, DEM, PNG);
    TestJobs.Result cleanRun =
        TestJobs.execute(
            "run", "--job", cleanJob.toString(), "--home", clean.resolve("h").toString());
    assertEquals(ExitCode.OK, cleanRun.code(), cleanRun.err());
    Map<String, String> expected = TestJobs.publishedTiles(clean.resolve("out"));
    assertTrue(expected.size() > atKill.size(), "killed mid-run: " + atKill.size() + " tiles");
    assertEquals(expected, TestJobs.publishedTiles(out));

    TestJobs.Result reap =
        TestJobs.execute(
            "reap", "--job", job.toString(), "--home", home.toString(), "--older-than", "1s");
    assertEquals(ExitCode.OK, reap.code(), reap.err());
    assertEquals(List.of(), TestJobs.temporaries(out));
    TestJobs.Result verify =
        TestJobs.execute("verify", "--job", job.toString(), "--home", home.toString());
    assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
  }

  private static boolean anyTile(Path out) throws Exception {
    return Files.exists(out) && TestJobs.publishedCount(out) > 0;
  }
}
