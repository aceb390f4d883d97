package io.tilebeam.pipeline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tilebeam.io.ledger.ChaosProxy;
import io.tilebeam.io.ledger.EmbeddedLedger;
import io.tilebeam.io.ledger.LedgerSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample job with its ledger behind a proxy that cuts connections at random (network resets,
 * some of them after the statement reached the server): every ledger statement is retried in place
 * on a fresh connection, and the run publishes exactly a clean run's tiles.
 */
@Tag("slow")
class LedgerFaultsIT {

  @TempDir Path dir;

  @Test
  void aRunWhoseLedgerConnectionsAreCutPublishesTheCleanResult() throws Exception {
    Path cleanDir = Files.createDirectories(dir.resolve("clean"));
    Path cleanJob = TestJobs.sample(cleanDir);
    TestJobs.runReporting(
        cleanDir.resolve("r.json"), "--job", cleanJob.toString(), "--home", cleanDir + "/home");

    try (EmbeddedLedger server = EmbeddedLedger.start(dir.resolve("ledger"))) {
      String url = server.config().jdbcUrl();
      LedgerSchema.migrate(server.config());
      URI real = URI.create(url.substring("jdbc:".length()));
      try (ChaosProxy proxy = ChaosProxy.start(real.getHost(), real.getPort(), 3, 4)) {
        String cut = url.replace(":" + real.getPort() + "/", ":" + proxy.port() + "/");
        Path faultsDir = Files.createDirectories(dir.resolve("faults"));
        Path job = TestJobs.sample(faultsDir);
        proxy.arm(true);
        JsonNode report =
            TestJobs.runReporting(
                faultsDir.resolve("r.json"), "--job", job.toString(), "--ledger", cut);
        proxy.arm(false);
        assertTrue(proxy.cuts() >= 3, "connections cut: " + proxy.cuts());
        assertEquals(EndToEndIT.SAMPLE_TILES, report.get("written").asInt());
        assertEquals(0, report.get("lostClaims").asInt());
        assertEquals(
            TestJobs.publishedTiles(cleanDir.resolve("out")),
            TestJobs.publishedTiles(faultsDir.resolve("out")));

        TestJobs.Result verify =
            TestJobs.execute("verify", "--job", job.toString(), "--ledger", url);
        assertEquals(ExitCode.OK, verify.code(), verify.out() + verify.err());
        assertTrue(verify.out().contains(EndToEndIT.SAMPLE_TILES + " completed tiles"));
      }
    }
  }
}
