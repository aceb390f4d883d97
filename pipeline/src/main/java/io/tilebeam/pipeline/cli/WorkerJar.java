package io.tilebeam.pipeline.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.options.FileStagingOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jar staged to workers on other machines: {@code tilebeam-worker.jar} beside the launching
 * {@code tilebeam.jar}, which leaves out what only the launcher uses (the embedded PostgreSQL
 * binaries), what a Flink cluster provides (Flink's runtime) and native libraries of other systems
 * than Linux. Without it (a run from the build's classes) Beam stages the classpath, as it would.
 */
final class WorkerJar {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerJar.class);

  /** The worker jar's file name, beside the launcher's. */
  static final String NAME = "tilebeam-worker.jar";

  private WorkerJar() {}

  /** The worker jar beside the jar this class was loaded from, if there is one. */
  static Optional<Path> besideLauncher() {
    try {
      var source = WorkerJar.class.getProtectionDomain().getCodeSource();
      // No location either from a JDK 25 AOT cache, which loads the class from the cache.
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path launcher = Path.of(source.getLocation().toURI());
      if (!Files.isRegularFile(launcher)) {
        return Optional.empty(); // classes from a directory: a build, not a jar
      }
      Path worker = launcher.resolveSibling(NAME);
      return Files.isRegularFile(worker) ? Optional.of(worker) : Optional.empty();
    } catch (URISyntaxException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * Stages the worker jar for a runner whose workers run elsewhere — Flink with a cluster's {@code
   * --flinkMaster}, Dataflow — unless {@code --filesToStage} was given.
   */
  static void stageFor(List<String> args, PipelineOptions options, Optional<Path> worker) {
    if (worker.isEmpty() || args.stream().anyMatch(a -> a.startsWith("--filesToStage"))) {
      return;
    }
    if (!remote(options)) {
      return;
    }
    options.as(FileStagingOptions.class).setFilesToStage(List.of(worker.get().toString()));
    LOG.info("staging {} to the workers", worker.get());
  }

  private static boolean remote(PipelineOptions options) {
    String runner = options.getRunner().getSimpleName();
    if (runner.equals("DataflowRunner")) {
      return true;
    }
    if (!runner.equals("FlinkRunner")) {
      return false;
    }
    String master = options.as(FlinkPipelineOptions.class).getFlinkMaster();
    return master != null && !master.startsWith("[");
  }
}
