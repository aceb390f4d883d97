package io.tilebeam.pipeline.cli;

import io.tilebeam.io.sink.OutputLocation;
import io.tilebeam.io.source.SourceFile;
import io.tilebeam.pipeline.job.JobPlan;
import io.tilebeam.pipeline.job.LayerPlan;
import java.util.List;

/**
 * What a runner whose workers are other machines (Dataflow) cannot reach: this machine's embedded
 * ledger, its directories, its files. Refused before anything is claimed, naming the layer and the
 * setting, rather than failing on the workers after the job was staged.
 */
final class RemoteWorkers {

  private RemoteWorkers() {}

  /** Whether the Beam options name a runner whose workers run elsewhere. */
  static boolean remote(List<String> beamArgs) {
    return beamArgs.stream()
        .anyMatch(a -> a.equals("--runner=DataflowRunner") || a.endsWith(".DataflowRunner"));
  }

  /**
   * Checks the job and ledger for a remote runner.
   *
   * @throws UsageException naming what the workers could not reach
   */
  static void check(JobPlan plan, String ledgerUrl) {
    if (ledgerUrl == null) {
      throw new UsageException(
          "--runner=DataflowRunner: the workers cannot reach the embedded ledger on this machine;"
              + " give --ledger jdbc:postgresql://... of a server they can reach");
    }
    for (int i = 0; i < plan.layers().size(); i++) {
      LayerPlan l = plan.layers().get(i);
      for (SourceFile file : l.source().files()) {
        if (file instanceof SourceFile.Local local) {
          throw new UsageException(
              "--runner=DataflowRunner: layers["
                  + i
                  + "].source.uri "
                  + local.file()
                  + " is a file on this machine, which the workers cannot read; use gs:// or s3://");
        }
      }
      if (l.publish().location() instanceof OutputLocation.Local local) {
        throw new UsageException(
            "--runner=DataflowRunner: layers["
                + i
                + "].output.uri "
                + local.directory()
                + " is a directory on this machine, which the workers cannot write; use gs://, s3:// or"
                + " a PostGIS table");
      }
    }
  }
}
