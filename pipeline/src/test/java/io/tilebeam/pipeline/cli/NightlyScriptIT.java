package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/nightly.sh}, the wrapper for cron and Airflow: one instance per job, a log and a
 * report per run, tilebeam's exit status passed through. The command it wraps is a stand-in script
 * here ({@code TILEBEAM}), so that the test checks the wrapper's own behaviour.
 */
class NightlyScriptIT {

  @TempDir Path dir;

  private Process start(Map<String, String> env) throws Exception {
    Path fake = dir.resolve("fake-tilebeam");
    Files.writeString(
        fake,
        "#!/usr/bin/env bash\n"
            + "echo \"fake tilebeam $*\"\n"
            + "report=\"\"; while [ $# -gt 0 ]; do\n"
            + "  if [ \"$1\" = --report ]; then report=\"$2\"; fi; shift; done\n"
            + "echo '{\"planned\":1}' > \"$report\"\n"
            + "sleep \"${FAKE_SLEEP:-0}\"\n"
            + "exit \"${FAKE_STATUS:-0}\"\n");
    fake.toFile().setExecutable(true);
    ProcessBuilder pb =
        new ProcessBuilder("bash", Path.of("../scripts/nightly.sh").toString(), "jobs/roads.yaml")
            .redirectErrorStream(true);
    pb.environment().put("TILEBEAM", fake.toString());
    pb.environment().put("TILEBEAM_LOG_DIR", dir.resolve("logs").toString());
    pb.environment().putAll(env);
    return pb.start();
  }

  private static String output(Process p) throws Exception {
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the wrapper finished");
    return out;
  }

  @Test
  void theExitStatusLogAndReportArePassedThrough() throws Exception {
    Process p = start(Map.of("FAKE_STATUS", "3"));
    output(p);
    assertEquals(3, p.exitValue());
    Path logs = dir.resolve("logs");
    String log = Files.readString(logs.resolve("roads-latest.log"));
    assertTrue(log.contains("fake tilebeam run --job jobs/roads.yaml --report "), log);
    assertTrue(log.contains("finished with exit status 3"), log);
    assertEquals("{\"planned\":1}\n", Files.readString(logs.resolve("roads-latest.report.json")));
  }

  @Test
  void aSecondStartWhileTheJobRunsExits75AndTouchesNothing() throws Exception {
    Process first = start(Map.of("FAKE_SLEEP", "4"));
    // Wait until the first holds the lock: its log exists.
    Path logs = dir.resolve("logs");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline
        && (!Files.isDirectory(logs)
            || Files.list(logs).noneMatch(f -> f.toString().endsWith(".log")))) {
      Thread.sleep(50);
    }
    Process second = start(Map.of());
    String out = output(second);
    assertEquals(75, second.exitValue(), out);
    assertTrue(out.contains("already running"), out);
    output(first);
    assertEquals(0, first.exitValue());
    // With the first finished, the job can start again.
    Process third = start(Map.of());
    output(third);
    assertEquals(0, third.exitValue());
  }
}
